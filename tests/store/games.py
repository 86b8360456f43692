"""Real games driven through the service for the store tests: humans' moves chosen by the AI."""

from __future__ import annotations

from bot.ai import RandomAgent
from bot.service import GameService
from bot.store.base import ACTIVE, GameRecord

GUILD = "guild"
PLAYERS = ("101", "102", "103")


async def started(
    service: GameService, channel: str, game: str = "street-art", players=PLAYERS
) -> GameRecord:
    """A game of ``game`` started in ``channel`` with human seats only (nobody moves yet)."""
    record = await service.new_game(game, GUILD, channel, players[0], "P0")
    for i, player in enumerate(players[1:], 1):
        await service.join(GUILD, channel, player, f"P{i}", record.id)
    return (await service.start(GUILD, channel, players[0], record.id)).record


async def play(service: GameService, record: GameRecord, moves: int, seed: str = "t") -> GameRecord:
    """Up to ``moves`` moves by whoever is to move, each chosen by a seeded AI."""
    agent = RandomAgent(seed)
    for _ in range(moves):
        if record.status != ACTIVE:
            break
        player = service.to_move(record)[0]
        action = agent.choose(service.engine(record), service.state(record), player)
        result = await service.move(GUILD, record.channel, player, action, ref=record.id)
        record = result.record
    return record
