"""Street Kings component data: a RECONSTRUCTION, not the published cards.

The printed card data (cars, upgrades, crew, NOZ, locations), the track distances and the trophy
supply are not public. This module is section 4 of the rulebook's component notes
("RECONSTRUCTION (not the published data)"), which keeps every number the rulebook states: two D
cars each, a start at 2 (= 2000), the 3000+1000+1000+1000+0 = 6000 car-show example, the example
locations 1000/2000/3000/4000 and 2000/3000/4000/5000 with a red Braking icon, a shop of players
+ 1 and car-show slots 3 (4 players) / 2 (2-3 players). Replace this module wholesale when real data
turns up; the engine reads every number from here.

Money is counted in thousands of credits ("k"): the rulebook's credit track counts in 1000s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: The four stats, in the player board's order: Top Speed, Acceleration, Handling, Braking.
STATS = ("TS", "AC", "HA", "BR")
STAT_NAMES = {"TS": "Top Speed", "AC": "Acceleration", "HA": "Handling", "BR": "Braking"}
#: Race places in words, and the unit credits are counted in (thousands: 3 -> "3k").
PLACE_NAMES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
CREDIT_UNIT = "k"

#: Car classes from the slowest; "one class above" is the next one in this tuple.
CLASSES = ("D", "C", "B", "A")

#: Spaces from the starting grid to each class's finish line (§4.1).
FINISH_LINE = {"D": 12, "C": 16, "B": 20, "A": 24}
#: The last space of the printed track (§4.1), used by the Custom Finish Line variant.
TRACK_LENGTH = 24
#: Where the Custom Finish Line token may go: any space of the track ("where the finish line will
#: be on the racing track"); the class is the letter closest to it.
CUSTOM_FINISH_SPACES = tuple(range(1, TRACK_LENGTH + 1))

START_CREDITS = 2
ELITE_START_CREDITS = 5
HAND_SIZE = 3
DEALERSHIP_SIZE = 3
LANES = (1, 2, 3, 4)
LOCATION_SPOTS = (1, 2)
#: Car-show slots by player count: "In a 4 player game, there are only 3 spots available at the
#: car show. In a 2 or 3 player game, there are only 2 spots available."
CAR_SHOW_SLOTS = {2: 2, 3: 2, 4: 3}
NOZ_SPACES = 3
GOLDS_TO_WIN = 7
SHORTER_GAME_GOLDS = 5

#: Trophies from the best; place 1 takes the first, place 4 the last.
TROPHIES = ("gold", "silver", "bronze", "fourth")


@dataclass(frozen=True)
class Car:
    """One car card: price and beauty (car-show value) in k, base stars per stat."""

    id: str
    name: str
    cls: str
    price: int
    beauty: int
    stars: dict[str, int]


def _cars(cls: str, rows: dict[str, tuple[str, int, int, int, int, int, int]]) -> list[Car]:
    return [
        Car(
            id=car_id,
            name=name,
            cls=cls,
            price=price,
            beauty=beauty,
            stars=dict(zip(STATS, (ts, ac, ha, br), strict=True)),
        )
        for car_id, (name, price, beauty, ts, ac, ha, br) in rows.items()
    ]


_CAR_LIST = [
    *_cars(
        "D",
        {
            "D01": ("Grey Hatch", 2, 1, 2, 2, 2, 2),
            "D02": ("Corner Shop Sedan", 2, 1, 2, 2, 2, 2),
            "D03": ("Highway Hauler", 2, 1, 3, 2, 2, 1),
            "D04": ("Long-Legs Wagon", 2, 1, 3, 1, 2, 2),
            "D05": ("Pizza Runner", 2, 1, 2, 3, 1, 2),
            "D06": ("Stoplight Buzz", 2, 1, 1, 3, 2, 2),
            "D07": ("Alley Cat", 2, 1, 2, 1, 3, 2),
            "D08": ("Parking-Lot Pro", 2, 1, 2, 2, 3, 1),
            "D09": ("Careful Cab", 2, 1, 1, 2, 2, 3),
            "D10": ("School-Run Van", 2, 1, 2, 2, 1, 3),
        },
    ),
    *_cars(
        "C",
        {
            "C01": ("Street Sparrow", 6, 2, 3, 3, 3, 2),
            "C02": ("Night Courier", 6, 2, 2, 3, 3, 3),
            "C03": ("Harbor Hopper", 6, 2, 3, 2, 3, 3),
            "C04": ("Metro Dart", 6, 2, 3, 3, 2, 3),
            "C05": ("Redline Coupe", 7, 2, 4, 3, 3, 2),
            "C06": ("Launch Box", 7, 2, 2, 4, 3, 3),
            "C07": ("Canyon Carver", 7, 2, 3, 2, 4, 3),
            "C08": ("Anchor GT", 7, 2, 3, 3, 2, 4),
            "C09": ("Chrome Cruiser", 8, 3, 3, 3, 3, 3),
            "C10": ("Velvet Coupe", 8, 3, 3, 3, 3, 3),
        },
    ),
    *_cars(
        "B",
        {
            "B01": ("Midnight Arrow", 12, 3, 4, 3, 4, 3),
            "B02": ("Torque Monster", 12, 3, 3, 4, 3, 4),
            "B03": ("Boulevard Blade", 12, 3, 4, 4, 3, 3),
            "B04": ("Apex Hunter", 12, 3, 3, 3, 4, 4),
            "B05": ("Nitro Wolf", 13, 3, 5, 4, 3, 3),
            "B06": ("Drift Queen", 13, 3, 3, 4, 5, 3),
            "B07": ("Iron Anchor", 13, 3, 3, 3, 4, 5),
            "B08": ("Neon Diva", 14, 4, 4, 4, 3, 4),
        },
    ),
    *_cars(
        "A",
        {
            "A01": ("Skyline Phantom", 20, 5, 5, 4, 4, 4),
            "A02": ("Blacktop King", 20, 5, 4, 5, 4, 4),
            "A03": ("Vortex R", 20, 5, 4, 4, 5, 4),
            "A04": ("Carbon Saint", 20, 5, 4, 4, 4, 5),
            "A05": ("Hyperion GT", 21, 5, 5, 5, 4, 4),
            "A06": ("Silk Razor", 21, 5, 4, 4, 5, 5),
            "A07": ("Gold Rush", 22, 6, 5, 4, 5, 4),
            "A08": ("Street Crown", 22, 6, 4, 5, 4, 5),
        },
    ),
]
CARS: dict[str, Car] = {car.id: car for car in _CAR_LIST}
CARS_BY_CLASS: dict[str, tuple[str, ...]] = {
    cls: tuple(car.id for car in _CAR_LIST if car.cls == cls) for cls in CLASSES
}

Kind = Literal["part", "noz", "crew"]


@dataclass(frozen=True)
class UpgradeType:
    """One kind of upgrade card (§4.3). ``colour`` is ``None`` for crew ("Crew members do not have
    a color"); ``stat`` is ``None`` for NOZ, which moves instead of adding stars."""

    id: str
    name: str
    kind: Kind
    colour: str | None
    stat: str | None
    stars: int
    price: int
    beauty: int
    copies: int


#: "Use one colour per stat" (§3.14): the colour of each stat's parts.
PART_COLOURS = {"TS": "red", "AC": "yellow", "HA": "blue", "BR": "green"}
_PART_NAMES = {"TS": "Engine Tune", "AC": "Turbo Kit", "HA": "Suspension", "BR": "Brake Kit"}
_PART_KEYS = {"TS": "engine", "AC": "turbo", "HA": "suspension", "BR": "brakes"}
#: stage: (stars, price k, beauty k, copies)
_STAGES = {"I": (1, 2, 1, 5), "II": (2, 4, 1, 4), "III": (3, 7, 2, 3)}
_CREW = {
    "gearhead": ("Gearhead", "TS"),
    "launch_tech": ("Launch Tech", "AC"),
    "wheelman": ("Wheelman", "HA"),
    "brake_specialist": ("Brake Specialist", "BR"),
}

UPGRADES: dict[str, UpgradeType] = {}
for _stat in STATS:
    for _n, (_stage, (_stars, _price, _beauty, _copies)) in enumerate(_STAGES.items(), 1):
        _id = f"{_PART_KEYS[_stat]}{_n}"
        UPGRADES[_id] = UpgradeType(
            _id,
            f"{_PART_NAMES[_stat]} {_stage}",
            "part",
            PART_COLOURS[_stat],
            _stat,
            _stars,
            _price,
            _beauty,
            _copies,
        )
UPGRADES["noz"] = UpgradeType("noz", "NOZ", "noz", "purple", None, 0, 3, 0, 6)
for _id, (_name, _stat) in _CREW.items():
    UPGRADES[_id] = UpgradeType(_id, f"Crew: {_name}", "crew", None, _stat, 1, 3, 0, 2)


def upgrade_deck(no_crew: bool, no_noz: bool) -> list[str]:
    """Every upgrade card as ``<type>-<copy>`` ("engine1-3"), less what a variant removes:
    "No Crew: Remove all the crew cards" and "No NOZ: Remove the Noz cards"."""
    cards: list[str] = []
    for info in UPGRADES.values():
        if (no_crew and info.kind == "crew") or (no_noz and info.kind == "noz"):
            continue
        cards.extend(f"{info.id}-{copy}" for copy in range(1, info.copies + 1))
    return cards


def upgrade_of(card: str) -> UpgradeType:
    """The kind of an upgrade card from its id ("engine1-3" -> Engine Tune I)."""
    return UPGRADES[card.rsplit("-", 1)[0]]


@dataclass(frozen=True)
class Location:
    """A location card: two stats raced in order, an optional red (penalty) stat, and prizes in k
    for 4th, 3rd, 2nd and 1st place, left to right as printed."""

    id: str
    name: str
    first: str
    second: str
    red: str | None
    prizes: tuple[int, int, int, int]


_PRIZES = {"P1": (1, 2, 3, 4), "P2": (2, 3, 4, 5), "P3": (2, 3, 4, 6)}
_LOCATION_ROWS = {
    "L01": ("Expressway Ramp", "TS", "AC", None, "P1"),
    "L02": ("Bayfront Sweepers", "TS", "HA", None, "P2"),
    "L03": ("Viaduct Drop", "TS", "BR", None, "P1"),
    "L04": ("Drag Strip Alley", "AC", "TS", None, "P2"),
    "L05": ("Market Chicanes", "AC", "HA", None, "P1"),
    "L06": ("Tunnel Exit", "AC", "BR", None, "P2"),
    "L07": ("Old Town Corners", "HA", "TS", None, "P1"),
    "L08": ("Dockyard Hairpin", "HA", "AC", None, "P2"),
    "L09": ("Switchback Hill", "HA", "BR", None, "P1"),
    "L10": ("Toll Plaza Launch", "BR", "TS", None, "P2"),
    "L11": ("Rail Crossing", "BR", "AC", None, "P1"),
    "L12": ("Parking Garage Spiral", "BR", "HA", None, "P2"),
    "L13": ("Airport Perimeter", "TS", "AC", "AC", "P3"),
    "L14": ("Riverside Drive", "TS", "HA", None, "P1"),
    "L15": ("Bridge Sprint", "TS", "BR", None, "P2"),
    "L16": ("Freeway On-Ramp", "AC", "TS", "TS", "P3"),
    "L17": ("Chinatown Weave", "AC", "HA", "HA", "P3"),
    "L18": ("Construction Zone", "AC", "BR", "BR", "P2"),
    "L19": ("Boardwalk Bends", "HA", "TS", None, "P1"),
    "L20": ("Stadium Loop", "HA", "AC", "AC", "P3"),
    "L21": ("Cliffside Road", "HA", "BR", "BR", "P3"),
    "L22": ("Downtown Straight", "BR", "TS", "TS", "P3"),
    "L23": ("Warehouse Row", "BR", "AC", None, "P2"),
    "L24": ("Cathedral Square", "BR", "HA", "HA", "P3"),
}
LOCATIONS: dict[str, Location] = {
    loc_id: Location(loc_id, name, first, second, red, _PRIZES[prizes])
    for loc_id, (name, first, second, red, prizes) in _LOCATION_ROWS.items()
}
