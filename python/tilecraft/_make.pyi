# Types of tilecraft.make (a stub only: at run time tilecraft.make is tilecraft.games.make).
# One overload per game returns that game's state class from the generated stubs (_core.pyi), so a
# checker knows make("azul") is an AzulState; a game name known only at run time gives the union of
# the state classes. tests/test_typing.py checks that every game of list_games() has its overload.
from typing import Any, Literal, SupportsIndex, Union, overload

from ._core import AzulState, CastleState, GaudiState, WarsawState

AnyState = Union[AzulState, CastleState, GaudiState, WarsawState]

@overload
def make(name: Literal["azul"], players: SupportsIndex = 2, seed: SupportsIndex = 0, **options: Any) -> AzulState: ...
@overload
def make(name: Literal["castle"], players: SupportsIndex = 2, seed: SupportsIndex = 0, **options: Any) -> CastleState: ...
@overload
def make(name: Literal["gaudi"], players: SupportsIndex = 2, seed: SupportsIndex = 0, **options: Any) -> GaudiState: ...
@overload
def make(name: Literal["warsaw"], players: SupportsIndex = 2, seed: SupportsIndex = 0, **options: Any) -> WarsawState: ...
@overload
def make(name: str, players: SupportsIndex = 2, seed: SupportsIndex = 0, **options: Any) -> AnyState: ...
