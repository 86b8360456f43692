"""Board posts in Components V2, as sent: the payload Discord gets, what a player reads in it,
and the checks every recorded V2 payload goes through (tests/harness/validate.py).

Discord's V2 rules (Components reference, "Message Flags" and "Text Display"): the flag
IS_COMPONENTS_V2 (1 << 15) forbids ``content`` and ``embeds``; at most 40 components, nested
ones counted; at most 4,000 characters across text displays; attachments show only through
media components; mentions in a text display ping as ``allowed_mentions`` allows.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from tests.discord_layer.test_street_art_discord import (
    ANA,
    BO,
    CY,
    DEE,
    TABLE,
    current_player,
    open_lobby,
    start_game,
    table,
)
from tests.harness import RecordedRequest, Response
from tests.harness.fake_discord import COMPONENTS_V2
from tests.harness.validate import hard_issues, policy_issues, response_validator

pytest_plugins = ["tests.harness.fixtures"]


def sent_board(response: Response) -> RecordedRequest:
    """The request that posted the response's board (the one that uploaded board.png)."""
    (request,) = [r for r in response.requests if any(f.filename == "board.png" for f in r.files)]
    return request


def message_of(request: RecordedRequest) -> dict[str, Any]:
    body = request.json
    return body.get("data", body)


async def test_a_board_post_is_one_container_of_text_board_and_buttons(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    started = await h.click(ANA, await open_lobby(h, ANA, BO, CY), label="Start")
    board = started.public_messages[-1]
    body = message_of(sent_board(started))
    assert body["flags"] & COMPONENTS_V2
    assert not body.get("content") and not body.get("embeds")
    (container,) = body["components"]
    kinds = [item["type"] for item in container["components"]]
    # One text (what happened, then whose move with the ping), the board, the buttons: no
    # footer repeating a button or a move number the board does not show.
    assert kinds == [10, 12, 1]
    galleries = [item for item in container["components"] if item["type"] == 12]
    assert galleries[0]["items"][0]["media"]["url"] == "attachment://board.png"
    mover = current_player(board)
    assert body["allowed_mentions"]["users"] == [mover.id]
    assert board.mentions == [mover.id]  # the ping in a text display notifies
    assert board.text().splitlines()[-1] == f"➡️ <@{mover.id}>, your move."
    assert "Move " not in board.text() and "/game hand" not in board.text()
    assert board.gallery[0] == "board.png" and board.image() == board.files["board.png"]
    assert [b.label for b in board.buttons] == ["My hand", "Board", "Rules"]
    # In its thread, whose name says the game, no heading repeats it.
    assert board.channel_id != TABLE.id and "· game " not in board.text()
    # The fake answered as Discord does: media resolved to the attachment, in the spec's shape.
    checker = response_validator("MessageResponse")
    assert [e.message for e in checker.iter_errors(board.raw)] == []


async def test_a_private_copy_is_v2_and_pings_nobody(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    private = await h.click(DEE, board, label="Board")
    body = message_of(sent_board(private))
    assert body["flags"] & COMPONENTS_V2 and private.message.ephemeral
    assert body["allowed_mentions"]["users"] == [] and private.message.mentions == []
    assert "<@" not in private.message.text()
    assert "**, your move." in private.message.text() and private.message.image()


def board_body() -> dict[str, Any]:
    """A valid V2 board post body, the shape board_post sends."""
    return {
        "flags": COMPONENTS_V2,
        "allowed_mentions": {"parse": [], "users": [1001]},
        "attachments": [{"id": 0, "filename": "board.png"}],
        "components": [
            {
                "type": 17,
                "components": [
                    {"type": 10, "content": "## Street Art · game abcd"},
                    {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 2, "label": "Board", "custom_id": "g:abcd:board:3"}
                        ],
                    },
                ],
            }
        ],
    }


def post(body: dict[str, Any]) -> RecordedRequest:
    return RecordedRequest(0, "POST", "/channels/1/messages", {}, body, [], False)


def container(body: dict[str, Any]) -> list[dict[str, Any]]:
    return body["components"][0]["components"]


def test_the_validator_passes_a_good_v2_board_and_refuses_each_broken_rule() -> None:
    good = board_body()
    assert hard_issues(post(good)) == []
    assert policy_issues(post(good), {"board.png"}) == []

    def broken(change: Any) -> list[str]:
        body = copy.deepcopy(good)
        change(body)
        return hard_issues(post(body))

    assert any("content or embeds" in i for i in broken(lambda b: b.update(content="hi")))
    embed = [{"title": "t"}]
    assert any("content or embeds" in i for i in broken(lambda b: b.update(embeds=embed)))
    many = [{"type": 10, "content": "x"}] * 36  # 5 + 36: nested components count
    assert any("max 40" in i for i in broken(lambda b: container(b).extend(many)))
    long = [{"type": 10, "content": "x" * 2000}] * 2
    assert any("max 4000" in i for i in broken(lambda b: container(b).extend(long)))
    button = lambda b: container(b)[2]["components"][0]  # noqa: E731
    assert any("custom_id" in i for i in broken(lambda b: button(b).update(custom_id="g" * 101)))
    # The OpenAPI schema: a text display needs text.
    assert broken(lambda b: container(b)[0].update(content=""))
    gallery = lambda b: container(b)[1]["items"][0]["media"]  # noqa: E731
    assert any("media URL" in i for i in broken(lambda b: gallery(b).update(url="board.png")))
    # What Discord accepts but shows wrong: a picture of no file, a file no picture shows.
    assert any("no such file" in i for i in policy_issues(post(good), set()))
    unshown = policy_issues(post(good), {"board.png", "market.png"})
    assert unshown == ["market.png is attached but no media component shows it"]
