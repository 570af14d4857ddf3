"""
tilecraft's C++ engines (use the tilecraft package, not this module directly)
"""
from __future__ import annotations
import numpy
import numpy.typing
import typing
__all__: list[str] = ['AZUL_STATE_BYTES', 'AzulState', 'AzulStatePUCTSearcher', 'AzulStateSearcher', 'AzulStateVector', 'CASTLE_STATE_BYTES', 'CHANCE', 'CastleState', 'CastleStatePUCTSearcher', 'CastleStateSearcher', 'CastleStateVector', 'GAUDI_STATE_BYTES', 'GaudiState', 'GaudiStatePUCTSearcher', 'GaudiStateSearcher', 'GaudiStateVector', 'IllegalActionError', 'InvalidConfigError', 'InvalidStateError', 'MAX_SEARCH_SECONDS', 'MlpNet', 'NimState', 'NimStatePUCTSearcher', 'NimStateSearcher', 'NimStateVector', 'PUCT_MAX_SIMULATIONS', 'TERMINAL', 'WARSAW_STATE_BYTES', 'WarsawState', 'WarsawStatePUCTSearcher', 'WarsawStateSearcher', 'WarsawStateVector', 'azul_random_playouts', 'castle_random_playouts', 'check_mcts_options', 'check_puct_options', 'gaudi_random_playouts', 'mcts_options', 'mix_seed', 'nim_random_playouts', 'puct_options', 'warsaw_random_playouts']
class IllegalActionError(ValueError):
    pass
class InvalidStateError(ValueError):
    pass
class InvalidConfigError(ValueError):
    pass
class MlpNet:
    """
    A policy-value MLP evaluated in C++ (tilecraft.baselines.Network.native() builds it); immutable, usable from any number of threads at once.
    """
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __call__(self, observations: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], legal_mask: typing.Annotated[numpy.typing.ArrayLike, numpy.bool], players: typing.Any) -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
        """
        The evaluator protocol: (logits (B, A) for every action, each absolute seat's win share (B, players)).
        """
    def __init__(self, obs_size: typing.SupportsInt | typing.SupportsIndex, num_actions: typing.SupportsInt | typing.SupportsIndex, players: typing.SupportsInt | typing.SupportsIndex, rest: typing.Annotated[numpy.typing.ArrayLike, numpy.int32], groups: list, trunk: list, value_trunk: list, policy: typing.Any, value: typing.Any) -> None:
        ...
    @property
    def num_actions(self) -> int:
        ...
    @property
    def obs_size(self) -> int:
        ...
    @property
    def players(self) -> int:
        ...
class AzulStateSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        A tree-search engine for this game. Options: iterations, seconds, exploration, rollout, rollout_depth, eval_scale, threads, seed, reuse_tree, determinize, max_nodes (tilecraft._core.mcts_options(); docs/search.md).
        """
    def act(self, state: AzulState) -> int:
        """
        The most visited root action.
        """
    def reset(self) -> None:
        """
        Forgets the kept tree (call it before a new game).
        """
    def search(self, state: AzulState) -> dict:
        """
        Searches from `state` (on re-determinized copies: its hidden parts are never read) and returns {action, visits, policy, values, iterations, nodes, seconds}; arrays are indexed by action id.
        """
class AzulStateVector:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, config: dict, num_envs: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0, threads: typing.SupportsInt | typing.SupportsIndex = 1, learner: typing.SupportsInt | typing.SupportsIndex = -1, opponents: list = [], all_observations: bool = False, evaluators: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        N games held in C++ (use tilecraft.VectorGame, which validates its arguments). An opponent is a bot dict (self_play's) or {'kind': 'evaluator', 'index': k}, k < `evaluators`: then the k-th evaluator given to reset() and step(), evaluate(observations, legal_mask, players) -> (logits, values), plays it (the argmax of its logits over the legal actions).
        """
    def buffers(self) -> dict:
        """
        numpy views (no copies) of the buffers every call rewrites, by field name.
        """
    def legal_actions(self) -> tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.int64]]:
        """
        (flat, offsets): game i's legal actions are flat[offsets[i]:offsets[i+1]] (none while it awaits its reset).
        """
    def reset(self, seed: typing.Any = None, evaluators: list = []) -> None:
        """
        Starts a new episode in every game (from episode 0 of a new seed's stream), advanced to the learner's first decision (evaluator opponents called as in step()).
        """
    def sample_legal(self) -> None:
        """
        Draws one uniformly random legal action per game into the 'sample' buffer.
        """
    def seeds(self, env: typing.SupportsIndex) -> dict:
        """
        The seeds of game `env`'s current episode.
        """
    def state(self, env: typing.SupportsIndex) -> AzulState:
        """
        A copy of game `env` as a state object (with its history).
        """
    def step(self, actions: typing.Any, evaluators: list = []) -> None:
        """
        Applies one action per game after checking them all; raises IllegalActionError naming the first bad env and action, and then applies nothing. Evaluator opponents are called once per round on all the games waiting for them. Ctrl-C stops it (the opponents' searches included) with KeyboardInterrupt, and an evaluator's error fails it; then only reset() is accepted.
        """
    @property
    def evaluators(self) -> int:
        """
        How many evaluators play opponent seats (reset() and step() take them).
        """
    @property
    def num_actions(self) -> int:
        ...
    @property
    def num_envs(self) -> int:
        ...
    @property
    def observation_shape(self) -> tuple:
        ...
    @property
    def players(self) -> int:
        ...
    @property
    def seed(self) -> int:
        ...
    @property
    def started(self) -> bool:
        ...
    @property
    def threads(self) -> int:
        ...
class AzulStatePUCTSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        PUCT guided by an evaluator; use tilecraft.PUCTBot.
        """
    def search(self, state: AzulState, evaluator: typing.Any, spent: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> dict:
        """
        Searches from `state` (a re-determinized copy) calling evaluator(observations, legal_mask, players) -> (logits float32 (B, A), values float32 (B, players)) on batches of at most batch_size leaves. `spent`: seconds of the move's time budget already used by the caller.
        """
class AzulState:
    game_name: typing.ClassVar[str] = 'azul'
    PUCTSearcher = AzulStatePUCTSearcher
    Searcher = AzulStateSearcher
    Vector = AzulStateVector
    @staticmethod
    def action_kinds() -> tuple[str, ...]:
        """
        The kinds of player actions, in id order (the kinds of action_ranges()).
        """
    @staticmethod
    def from_dict(data: typing.Any) -> AzulState:
        ...
    @staticmethod
    def from_json(text: typing.Any) -> AzulState:
        ...
    @staticmethod
    def locations() -> dict[str, int]:
        """
        Named card or tile locations, name -> number ({} for games without them).
        """
    @staticmethod
    def phase_names() -> tuple[str, ...]:
        """
        Every phase's name, indexed by phase id.
        """
    @staticmethod
    def puct_self_play(config: dict, bots: list, evaluators: list, n_games: typing.SupportsInt | typing.SupportsIndex, first_game: typing.SupportsInt | typing.SupportsIndex = 0, seed: typing.SupportsIndex = 0, concurrent: typing.SupportsInt | typing.SupportsIndex = 256, rotate: bool = True, record: bool = False, compact: bool = False) -> dict:
        """
        Batched self-play with PUCT bots guided by Python evaluators. compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    @staticmethod
    def self_play(config: dict, bots: list, n_games: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, rotate: bool = True, record: bool = False, compact: bool = False, progress: typing.Any = None) -> dict:
        """
        Plays n_games between built-in bots entirely in C++ (GIL released; Ctrl-C raises KeyboardInterrupt). compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    def __copy__(self) -> AzulState:
        ...
    def __deepcopy__(self, memo: dict) -> AzulState:
        ...
    def __eq__(self, arg0: typing.Any) -> typing.Any:
        """
        Content equality: same configuration and position (RNG and hidden parts included); the history is not compared.
        """
    def __hash__(self) -> int:
        """
        hash(state): from hash_key(); it changes when the state changes (do not mutate a state used as a key).
        """
    def __init__(self, config: typing.Any, seed: typing.SupportsIndex = 0) -> None:
        """
        A new game from a config dict (see tilecraft.make for validated options) and a seed.
        """
    def __reduce__(self) -> tuple:
        ...
    def __repr__(self) -> str:
        ...
    def _repr_svg_(self) -> str:
        ...
    def action_kind(self, action: typing.SupportsIndex) -> str:
        """
        The kind of an action id (one of action_kinds()); IllegalActionError out of range.
        """
    def action_ranges(self) -> list[tuple[str, int, int]]:
        """
        [(kind, first, end), ...]: action ids first..end-1 are of that kind; in id order, without gaps, covering 0..num_distinct_actions()-1 for this state's configuration.
        """
    def action_to_string(self, action: typing.SupportsIndex) -> str:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Plays one action (or resolves a chance node with an outcome). Actions are Python ints or numpy integers (TypeError for bool, float, str). Raises IllegalActionError (a ValueError) naming the action and why it is illegal; the state is then unchanged.
        """
    def bag(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        Tile counts per colour in the bag.
        """
    def chance_outcomes(self) -> list:
        """
        [(outcome, probability), ...] at a chance node, [] elsewhere.
        """
    def clone(self) -> AzulState:
        """
        An independent copy.
        """
    def complete_rows(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def config(self) -> dict:
        """
        The rule configuration as a dict.
        """
    def current_player(self) -> int:
        """
        Seat to act (0-based); -2 (tilecraft.CHANCE) at a chance node; -1 (tilecraft.TERMINAL) when the game is over.
        """
    def factories(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 array [source, colour] of tile counts: row 0 is the centre, rows 1.. the factories.
        """
    def first_player(self) -> int:
        """
        Seat that started this round.
        """
    def floors(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 array [player, (occupied spaces, holds marker, tiles of colour 0..4)].
        """
    def greedy_action(self, seed: typing.SupportsIndex) -> int:
        """
        The greedy bot's choice: the action with the best one-ply heuristic for the mover.
        """
    def hash_key(self) -> int:
        """
        A 64-bit content hash of the position (config and every saved field, RNG and hidden parts included; history excluded): equal states have equal keys. Computed on each call.
        """
    def heuristic(self, player: typing.SupportsIndex) -> float:
        """
        The one-ply value the greedy bot maximises for `player` (the game's docs define it).
        """
    def history(self) -> list[int]:
        """
        Every action and chance outcome applied so far.
        """
    def is_chance_node(self) -> bool:
        ...
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        """
        Whether `action` (an int or numpy integer) is legal now; False for any out-of-range id.
        """
    def is_terminal(self) -> bool:
        ...
    def legal_action_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Bool numpy array of length num_distinct_actions(), True at the legal ids.
        """
    def legal_actions(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        Legal action ids as an ascending int32 numpy array (the outcomes at a chance node).
        """
    def lid(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        Tile counts per colour in the box lid.
        """
    def marker_in_centre(self) -> bool:
        ...
    def max_chance_outcomes(self) -> int:
        ...
    def new_game(self, seed: typing.SupportsIndex) -> AzulState:
        """
        A new game of this state's configuration (shared, not converted again) from `seed`: the state the class constructor gives for this config and seed (tilecraft.make uses it for a warm make).
        """
    def next_first_player(self) -> int:
        """
        Seat that will start the next round (the marker's holder, or this round's first player).
        """
    def num_distinct_actions(self) -> int:
        """
        Size of the fixed action-id range [0, n) of this configuration.
        """
    def num_players(self) -> int:
        ...
    def observation(self, player: typing.SupportsIndex, out: typing.Any = None, dtype: typing.Any = None) -> typing.Any:
        """
        Array of observation_shape(): what `player` sees, float32 by default. dtype=numpy.uint8 gives every feature as a byte code, losslessly: the float32 observation is code / denominator + offset (see observation_codec()); a feature outside its codec's 0..255 range raises ValueError. out= fills any writable numpy array of that dtype and size (any strides) and returns it.
        """
    def observation_codec(self) -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
        """
        (denominator, offset): float32 arrays of observation_shape() with which the uint8 observation decodes exactly: observation(p) == observation(p, dtype=numpy.uint8) / denominator + offset. They depend on the configuration only.
        """
    def observation_layout(self) -> str:
        """
        The observation layout as 'game/vVERSION/HASH': the game's observation version (bumped when the observation or the action ids change meaning) and a hash of observation_shape(), num_distinct_actions(), num_players() and observation_codec(). A trained network records it and refuses a state whose layout differs (tilecraft.baselines).
        """
    def observation_shape(self) -> tuple:
        ...
    def pattern_lines(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 array [player, line, (colour or -1, count)].
        """
    def phase(self) -> int:
        """
        The phase id: an index into phase_names().
        """
    def phase_name(self) -> str:
        """
        The name of the current phase: phase_names()[phase()] (the words of the text picture).
        """
    def resample_hidden(self, observer: typing.SupportsIndex, seed: typing.SupportsIndex) -> None:
        """
        Reshuffles everything `observer` cannot see (hidden cards, future draws) from `seed`, consistently with what it has seen. Use it on a clone before searching.
        """
    def returns(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Per-seat returns at the end of the game (zeros before); see the game's returns_mode.
        """
    def round(self) -> int:
        """
        0-based index of the current round.
        """
    def scores(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Current scores per seat (final scores once terminal).
        """
    def string_to_action(self, text: typing.Any) -> int:
        ...
    def to_dict(self) -> dict:
        """
        The full state (RNG and hidden parts included) as a JSON-ready dict.
        """
    def to_json(self) -> typing.Any:
        """
        The full state as a JSON string; from_json() restores it exactly.
        """
    def walls(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        bool array [player, row, column]: the tiles on each wall.
        """
    def winners(self) -> list[int]:
        """
        Seats that won (several on a shared victory); [] before the end.
        """
class CastleStateSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        A tree-search engine for this game. Options: iterations, seconds, exploration, rollout, rollout_depth, eval_scale, threads, seed, reuse_tree, determinize, max_nodes (tilecraft._core.mcts_options(); docs/search.md).
        """
    def act(self, state: CastleState) -> int:
        """
        The most visited root action.
        """
    def reset(self) -> None:
        """
        Forgets the kept tree (call it before a new game).
        """
    def search(self, state: CastleState) -> dict:
        """
        Searches from `state` (on re-determinized copies: its hidden parts are never read) and returns {action, visits, policy, values, iterations, nodes, seconds}; arrays are indexed by action id.
        """
class CastleStateVector:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, config: dict, num_envs: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0, threads: typing.SupportsInt | typing.SupportsIndex = 1, learner: typing.SupportsInt | typing.SupportsIndex = -1, opponents: list = [], all_observations: bool = False, evaluators: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        N games held in C++ (use tilecraft.VectorGame, which validates its arguments). An opponent is a bot dict (self_play's) or {'kind': 'evaluator', 'index': k}, k < `evaluators`: then the k-th evaluator given to reset() and step(), evaluate(observations, legal_mask, players) -> (logits, values), plays it (the argmax of its logits over the legal actions).
        """
    def buffers(self) -> dict:
        """
        numpy views (no copies) of the buffers every call rewrites, by field name.
        """
    def legal_actions(self) -> tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.int64]]:
        """
        (flat, offsets): game i's legal actions are flat[offsets[i]:offsets[i+1]] (none while it awaits its reset).
        """
    def reset(self, seed: typing.Any = None, evaluators: list = []) -> None:
        """
        Starts a new episode in every game (from episode 0 of a new seed's stream), advanced to the learner's first decision (evaluator opponents called as in step()).
        """
    def sample_legal(self) -> None:
        """
        Draws one uniformly random legal action per game into the 'sample' buffer.
        """
    def seeds(self, env: typing.SupportsIndex) -> dict:
        """
        The seeds of game `env`'s current episode.
        """
    def state(self, env: typing.SupportsIndex) -> CastleState:
        """
        A copy of game `env` as a state object (with its history).
        """
    def step(self, actions: typing.Any, evaluators: list = []) -> None:
        """
        Applies one action per game after checking them all; raises IllegalActionError naming the first bad env and action, and then applies nothing. Evaluator opponents are called once per round on all the games waiting for them. Ctrl-C stops it (the opponents' searches included) with KeyboardInterrupt, and an evaluator's error fails it; then only reset() is accepted.
        """
    @property
    def evaluators(self) -> int:
        """
        How many evaluators play opponent seats (reset() and step() take them).
        """
    @property
    def num_actions(self) -> int:
        ...
    @property
    def num_envs(self) -> int:
        ...
    @property
    def observation_shape(self) -> tuple:
        ...
    @property
    def players(self) -> int:
        ...
    @property
    def seed(self) -> int:
        ...
    @property
    def started(self) -> bool:
        ...
    @property
    def threads(self) -> int:
        ...
class CastleStatePUCTSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        PUCT guided by an evaluator; use tilecraft.PUCTBot.
        """
    def search(self, state: CastleState, evaluator: typing.Any, spent: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> dict:
        """
        Searches from `state` (a re-determinized copy) calling evaluator(observations, legal_mask, players) -> (logits float32 (B, A), values float32 (B, players)) on batches of at most batch_size leaves. `spent`: seconds of the move's time budget already used by the caller.
        """
class CastleState:
    game_name: typing.ClassVar[str] = 'castle'
    PUCTSearcher = CastleStatePUCTSearcher
    Searcher = CastleStateSearcher
    Vector = CastleStateVector
    @staticmethod
    def action_kinds() -> tuple[str, ...]:
        """
        The kinds of player actions, in id order (the kinds of action_ranges()).
        """
    @staticmethod
    def from_dict(data: typing.Any) -> CastleState:
        ...
    @staticmethod
    def from_json(text: typing.Any) -> CastleState:
        ...
    @staticmethod
    def locations() -> dict[str, int]:
        """
        Named card or tile locations, name -> number ({} for games without them).
        """
    @staticmethod
    def phase_names() -> tuple[str, ...]:
        """
        Every phase's name, indexed by phase id.
        """
    @staticmethod
    def puct_self_play(config: dict, bots: list, evaluators: list, n_games: typing.SupportsInt | typing.SupportsIndex, first_game: typing.SupportsInt | typing.SupportsIndex = 0, seed: typing.SupportsIndex = 0, concurrent: typing.SupportsInt | typing.SupportsIndex = 256, rotate: bool = True, record: bool = False, compact: bool = False) -> dict:
        """
        Batched self-play with PUCT bots guided by Python evaluators. compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    @staticmethod
    def self_play(config: dict, bots: list, n_games: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, rotate: bool = True, record: bool = False, compact: bool = False, progress: typing.Any = None) -> dict:
        """
        Plays n_games between built-in bots entirely in C++ (GIL released; Ctrl-C raises KeyboardInterrupt). compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    def __copy__(self) -> CastleState:
        ...
    def __deepcopy__(self, memo: dict) -> CastleState:
        ...
    def __eq__(self, arg0: typing.Any) -> typing.Any:
        """
        Content equality: same configuration and position (RNG and hidden parts included); the history is not compared.
        """
    def __hash__(self) -> int:
        """
        hash(state): from hash_key(); it changes when the state changes (do not mutate a state used as a key).
        """
    def __init__(self, config: typing.Any, seed: typing.SupportsIndex = 0) -> None:
        """
        A new game from a config dict (see tilecraft.make for validated options) and a seed.
        """
    def __reduce__(self) -> tuple:
        ...
    def __repr__(self) -> str:
        ...
    def _repr_svg_(self) -> str:
        ...
    def action_kind(self, action: typing.SupportsIndex) -> str:
        """
        The kind of an action id (one of action_kinds()); IllegalActionError out of range.
        """
    def action_ranges(self) -> list[tuple[str, int, int]]:
        """
        [(kind, first, end), ...]: action ids first..end-1 are of that kind; in id order, without gaps, covering 0..num_distinct_actions()-1 for this state's configuration.
        """
    def action_to_string(self, action: typing.SupportsIndex) -> str:
        ...
    def alt_tile(self) -> int:
        """
        The other drawn tile in draw_two_choose_one mode.
        """
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Plays one action (or resolves a chance node with an outcome). Actions are Python ints or numpy integers (TypeError for bool, float, str). Raises IllegalActionError (a ValueError) naming the action and why it is illegal; the state is then unchanged.
        """
    def area_at(self, cell: typing.SupportsInt | typing.SupportsIndex, slot: typing.SupportsInt | typing.SupportsIndex) -> dict:
        """
        The area through area slot `slot` of the tile on `cell`.
        """
    def areas(self) -> list:
        """
        Every area on the board (gate-only areas included).
        """
    def board(self) -> numpy.typing.NDArray[numpy.int16]:
        """
        int16 array [row, col, (tile type, rotation)]: type -1 = empty interior, -2 = outside the wall.
        """
    def chance_outcomes(self) -> list:
        """
        [(outcome, probability), ...] at a chance node, [] elsewhere.
        """
    def clone(self) -> CastleState:
        """
        An independent copy.
        """
    def config(self) -> dict:
        """
        The rule configuration as a dict.
        """
    def corners_stocked(self) -> list[bool]:
        """
        Per corner: does it still hold a face-down wall tile?
        """
    def current_player(self) -> int:
        """
        Seat to act (0-based); -2 (tilecraft.CHANCE) at a chance node; -1 (tilecraft.TERMINAL) when the game is over.
        """
    def current_tile(self) -> int:
        """
        Tile type in hand (-1 none).
        """
    def extra_turns(self) -> int:
        ...
    def followers(self) -> list:
        """
        Followers on the board: dicts with seat, cell (bbox index row * width + col), slot and their area.
        """
    def followers_in_supply(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def greedy_action(self, seed: typing.SupportsIndex) -> int:
        """
        The greedy bot's choice: the action with the best one-ply heuristic for the mover.
        """
    def hash_key(self) -> int:
        """
        A 64-bit content hash of the position (config and every saved field, RNG and hidden parts included; history excluded): equal states have equal keys. Computed on each call.
        """
    def heuristic(self, player: typing.SupportsIndex) -> float:
        """
        The one-ply value the greedy bot maximises for `player` (the game's docs define it).
        """
    def history(self) -> list[int]:
        """
        Every action and chance outcome applied so far.
        """
    def is_chance_node(self) -> bool:
        ...
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        """
        Whether `action` (an int or numpy integer) is legal now; False for any out-of-range id.
        """
    def is_terminal(self) -> bool:
        ...
    def keep(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int]:
        """
        (size, cell) of a seat's keep (palace); (0, -1) when it has none.
        """
    def largest_empty_area(self) -> int:
        """
        Cells in the largest connected group of empty interior cells (bitboard flood fill).
        """
    def last_cell(self) -> int:
        ...
    def legal_action_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Bool numpy array of length num_distinct_actions(), True at the legal ids.
        """
    def legal_actions(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        Legal action ids as an ascending int32 numpy array (the outcomes at a chance node).
        """
    def legal_cells(self, tile: typing.SupportsInt | typing.SupportsIndex, rotation: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        Cells where tile type `tile` fits with `rotation` now.
        """
    def max_chance_outcomes(self) -> int:
        ...
    def new_game(self, seed: typing.SupportsIndex) -> CastleState:
        """
        A new game of this state's configuration (shared, not converted again) from `seed`: the state the class constructor gives for this config and seed (tilecraft.make uses it for a warm make).
        """
    def num_distinct_actions(self) -> int:
        """
        Size of the fixed action-id range [0, n) of this configuration.
        """
    def num_players(self) -> int:
        ...
    def observation(self, player: typing.SupportsIndex, out: typing.Any = None, dtype: typing.Any = None) -> typing.Any:
        """
        Array of observation_shape(): what `player` sees, float32 by default. dtype=numpy.uint8 gives every feature as a byte code, losslessly: the float32 observation is code / denominator + offset (see observation_codec()); a feature outside its codec's 0..255 range raises ValueError. out= fills any writable numpy array of that dtype and size (any strides) and returns it.
        """
    def observation_codec(self) -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
        """
        (denominator, offset): float32 arrays of observation_shape() with which the uint8 observation decodes exactly: observation(p) == observation(p, dtype=numpy.uint8) / denominator + offset. They depend on the configuration only.
        """
    def observation_layout(self) -> str:
        """
        The observation layout as 'game/vVERSION/HASH': the game's observation version (bumped when the observation or the action ids change meaning) and a hash of observation_shape(), num_distinct_actions(), num_players() and observation_codec(). A trained network records it and refuses a state whose layout differs (tilecraft.baselines).
        """
    def observation_shape(self) -> tuple:
        ...
    def pending_areas(self) -> list:
        """
        Completed areas still to be scored this turn, in pending order.
        """
    def phase(self) -> int:
        """
        The phase id: an index into phase_names().
        """
    def phase_name(self) -> str:
        """
        The name of the current phase: phase_names()[phase()] (the words of the text picture).
        """
    def placed_cells(self) -> list[int]:
        """
        Cells in placement order.
        """
    def removed(self) -> numpy.typing.NDArray[numpy.int16]:
        """
        Tiles set aside as unplaceable, per type.
        """
    def resample_hidden(self, observer: typing.SupportsIndex, seed: typing.SupportsIndex) -> None:
        """
        Reshuffles everything `observer` cannot see (hidden cards, future draws) from `seed`, consistently with what it has seen. Use it on a clone before searching.
        """
    def returns(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Per-seat returns at the end of the game (zeros before); see the game's returns_mode.
        """
    def scores(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Current scores per seat (final scores once terminal).
        """
    def scores_by_category(self) -> numpy.typing.NDArray[numpy.int16]:
        """
        int16 [seat, (road, tower, house, court, wall tiles 4-6, wall tile 9, keep)]; rows sum to the scores.
        """
    def string_to_action(self, text: typing.Any) -> int:
        ...
    def supply(self) -> numpy.typing.NDArray[numpy.int16]:
        """
        Tiles left in the supply per type (what is left is public; the order is not).
        """
    def to_dict(self) -> dict:
        """
        The full state (RNG and hidden parts included) as a JSON-ready dict.
        """
    def to_json(self) -> typing.Any:
        """
        The full state as a JSON string; from_json() restores it exactly.
        """
    def turn(self) -> int:
        ...
    def wall_tiles(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 [seat, (usable, taken this round, used), kind 1..9] wall-tile counts.
        """
    def winners(self) -> list[int]:
        """
        Seats that won (several on a shared victory); [] before the end.
        """
class GaudiStateSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        A tree-search engine for this game. Options: iterations, seconds, exploration, rollout, rollout_depth, eval_scale, threads, seed, reuse_tree, determinize, max_nodes (tilecraft._core.mcts_options(); docs/search.md).
        """
    def act(self, state: GaudiState) -> int:
        """
        The most visited root action.
        """
    def reset(self) -> None:
        """
        Forgets the kept tree (call it before a new game).
        """
    def search(self, state: GaudiState) -> dict:
        """
        Searches from `state` (on re-determinized copies: its hidden parts are never read) and returns {action, visits, policy, values, iterations, nodes, seconds}; arrays are indexed by action id.
        """
class GaudiStateVector:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, config: dict, num_envs: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0, threads: typing.SupportsInt | typing.SupportsIndex = 1, learner: typing.SupportsInt | typing.SupportsIndex = -1, opponents: list = [], all_observations: bool = False, evaluators: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        N games held in C++ (use tilecraft.VectorGame, which validates its arguments). An opponent is a bot dict (self_play's) or {'kind': 'evaluator', 'index': k}, k < `evaluators`: then the k-th evaluator given to reset() and step(), evaluate(observations, legal_mask, players) -> (logits, values), plays it (the argmax of its logits over the legal actions).
        """
    def buffers(self) -> dict:
        """
        numpy views (no copies) of the buffers every call rewrites, by field name.
        """
    def legal_actions(self) -> tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.int64]]:
        """
        (flat, offsets): game i's legal actions are flat[offsets[i]:offsets[i+1]] (none while it awaits its reset).
        """
    def reset(self, seed: typing.Any = None, evaluators: list = []) -> None:
        """
        Starts a new episode in every game (from episode 0 of a new seed's stream), advanced to the learner's first decision (evaluator opponents called as in step()).
        """
    def sample_legal(self) -> None:
        """
        Draws one uniformly random legal action per game into the 'sample' buffer.
        """
    def seeds(self, env: typing.SupportsIndex) -> dict:
        """
        The seeds of game `env`'s current episode.
        """
    def state(self, env: typing.SupportsIndex) -> GaudiState:
        """
        A copy of game `env` as a state object (with its history).
        """
    def step(self, actions: typing.Any, evaluators: list = []) -> None:
        """
        Applies one action per game after checking them all; raises IllegalActionError naming the first bad env and action, and then applies nothing. Evaluator opponents are called once per round on all the games waiting for them. Ctrl-C stops it (the opponents' searches included) with KeyboardInterrupt, and an evaluator's error fails it; then only reset() is accepted.
        """
    @property
    def evaluators(self) -> int:
        """
        How many evaluators play opponent seats (reset() and step() take them).
        """
    @property
    def num_actions(self) -> int:
        ...
    @property
    def num_envs(self) -> int:
        ...
    @property
    def observation_shape(self) -> tuple:
        ...
    @property
    def players(self) -> int:
        ...
    @property
    def seed(self) -> int:
        ...
    @property
    def started(self) -> bool:
        ...
    @property
    def threads(self) -> int:
        ...
class GaudiStatePUCTSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        PUCT guided by an evaluator; use tilecraft.PUCTBot.
        """
    def search(self, state: GaudiState, evaluator: typing.Any, spent: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> dict:
        """
        Searches from `state` (a re-determinized copy) calling evaluator(observations, legal_mask, players) -> (logits float32 (B, A), values float32 (B, players)) on batches of at most batch_size leaves. `spent`: seconds of the move's time budget already used by the caller.
        """
class GaudiState:
    game_name: typing.ClassVar[str] = 'gaudi'
    PUCTSearcher = GaudiStatePUCTSearcher
    Searcher = GaudiStateSearcher
    Vector = GaudiStateVector
    @staticmethod
    def action_kinds() -> tuple[str, ...]:
        """
        The kinds of player actions, in id order (the kinds of action_ranges()).
        """
    @staticmethod
    def from_dict(data: typing.Any) -> GaudiState:
        ...
    @staticmethod
    def from_json(text: typing.Any) -> GaudiState:
        ...
    @staticmethod
    def locations() -> dict[str, int]:
        """
        Named card or tile locations, name -> number ({} for games without them).
        """
    @staticmethod
    def phase_names() -> tuple[str, ...]:
        """
        Every phase's name, indexed by phase id.
        """
    @staticmethod
    def puct_self_play(config: dict, bots: list, evaluators: list, n_games: typing.SupportsInt | typing.SupportsIndex, first_game: typing.SupportsInt | typing.SupportsIndex = 0, seed: typing.SupportsIndex = 0, concurrent: typing.SupportsInt | typing.SupportsIndex = 256, rotate: bool = True, record: bool = False, compact: bool = False) -> dict:
        """
        Batched self-play with PUCT bots guided by Python evaluators. compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    @staticmethod
    def self_play(config: dict, bots: list, n_games: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, rotate: bool = True, record: bool = False, compact: bool = False, progress: typing.Any = None) -> dict:
        """
        Plays n_games between built-in bots entirely in C++ (GIL released; Ctrl-C raises KeyboardInterrupt). compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    def __copy__(self) -> GaudiState:
        ...
    def __deepcopy__(self, memo: dict) -> GaudiState:
        ...
    def __eq__(self, arg0: typing.Any) -> typing.Any:
        """
        Content equality: same configuration and position (RNG and hidden parts included); the history is not compared.
        """
    def __hash__(self) -> int:
        """
        hash(state): from hash_key(); it changes when the state changes (do not mutate a state used as a key).
        """
    def __init__(self, config: typing.Any, seed: typing.SupportsIndex = 0) -> None:
        """
        A new game from a config dict (see tilecraft.make for validated options) and a seed.
        """
    def __reduce__(self) -> tuple:
        ...
    def __repr__(self) -> str:
        ...
    def _repr_svg_(self) -> str:
        ...
    def action_kind(self, action: typing.SupportsIndex) -> str:
        """
        The kind of an action id (one of action_kinds()); IllegalActionError out of range.
        """
    def action_ranges(self) -> list[tuple[str, int, int]]:
        """
        [(kind, first, end), ...]: action ids first..end-1 are of that kind; in id order, without gaps, covering 0..num_distinct_actions()-1 for this state's configuration.
        """
    def action_to_string(self, action: typing.SupportsIndex) -> str:
        ...
    def anyone_finished(self) -> bool:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Plays one action (or resolves a chance node with an outcome). Actions are Python ints or numpy integers (TypeError for bool, float, str). Raises IllegalActionError (a ValueError) naming the action and why it is illegal; the state is then unchanged.
        """
    def areas(self) -> list:
        """
        Per supply area, the count of each tile type 4 * colour + shape.
        """
    def automa_area(self) -> tuple[list, list, list]:
        """
        Solo: (the automa's columns N, C, R earliest first, its tiles per type, the virtual marker's removed tiles per type).
        """
    def automa_final_score(self) -> int:
        """
        Solo: the automa's score by GA-SOLO-END-2..4 as if the game ended now.
        """
    def automa_score(self) -> int:
        """
        Solo: the automa's final score (0 before the end).
        """
    def bag(self) -> list:
        ...
    def board(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        One occupancy mask per colour (bit b = board space b).
        """
    def card_location(self, card: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int]:
        """
        (0 deck, 1 window, 2 hand, 3 column, 4 discard, 5 pool; owner seat or domain).
        """
    def central(self) -> tuple[int, int, int]:
        """
        (current central tile or -1, mask of tiles drawn, options still available mask).
        """
    def chance_outcomes(self) -> list:
        """
        [(outcome, probability), ...] at a chance node, [] elsewhere.
        """
    def chimney_tiles(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int, int]:
        """
        The chimney tile id per domain (expert: dealt at random, 255 before; basic: the day tile).
        """
    def chimneys(self, seat: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int, int]:
        ...
    def clone(self) -> GaudiState:
        """
        An independent copy.
        """
    def columns(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        ...
    def config(self) -> dict:
        """
        The rule configuration as a dict.
        """
    def current_player(self) -> int:
        """
        Seat to act (0-based); -2 (tilecraft.CHANCE) at a chance node; -1 (tilecraft.TERMINAL) when the game is over.
        """
    def deck_sizes(self) -> tuple[int, int, int]:
        ...
    def discards(self) -> list:
        ...
    def domain_scores(self, seat: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int, int]:
        ...
    def draft_start(self) -> int:
        """
        Expert: the start player when the draft ran.
        """
    def expert(self) -> bool:
        """
        Whether the game plays the expert (night) rules; config()['mode'] == 1, without building the dict.
        """
    def extra_turns(self) -> int:
        ...
    def final_scoring(self, seat: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, tuple[int, int, int], int]:
        """
        (final score, domain scores after end scoring, tie-break): as if the game ended now, or, once it has ended, the recorded result.
        """
    def frames(self) -> list:
        """
        The frame stack, bottom first: pending items per catalogue entry, snapshot, repetitions left.
        """
    def greedy_action(self, seed: typing.SupportsIndex) -> int:
        """
        The greedy bot's choice: the action with the best one-ply heuristic for the mover.
        """
    def group_sizes(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Every same-colour group size, descending.
        """
    def hand(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Card ids in a hand (hidden information: for tests and tools, not bots).
        """
    def hash_key(self) -> int:
        """
        A 64-bit content hash of the position (config and every saved field, RNG and hidden parts included; history excluded): equal states have equal keys. Computed on each call.
        """
    def heuristic(self, player: typing.SupportsIndex) -> float:
        """
        The one-ply value the greedy bot maximises for `player` (the game's docs define it).
        """
    def history(self) -> list[int]:
        """
        Every action and chance outcome applied so far.
        """
    def is_chance_node(self) -> bool:
        ...
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        """
        Whether `action` (an int or numpy integer) is legal now; False for any out-of-range id.
        """
    def is_terminal(self) -> bool:
        ...
    def item_entry(self) -> int:
        ...
    def knows_passed(self, arg0: typing.SupportsInt | typing.SupportsIndex, arg1: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Expert draft: whether seat q knows card c as one of the hidden cards it has seen or passed on.
        """
    def largest_groups(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Largest same-colour group per colour (kept incrementally).
        """
    def leader(self) -> bool:
        """
        Whether the seat to act leads this turn (GA-AMB-9).
        """
    def legal_action_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Bool numpy array of length num_distinct_actions(), True at the legal ids.
        """
    def legal_actions(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        Legal action ids as an ascending int32 numpy array (the outcomes at a chance node).
        """
    def marker_holder(self) -> int:
        """
        Holder of the start-player marker.
        """
    def max_chance_outcomes(self) -> int:
        ...
    def new_game(self, seed: typing.SupportsIndex) -> GaudiState:
        """
        A new game of this state's configuration (shared, not converted again) from `seed`: the state the class constructor gives for this config and seed (tilecraft.make uses it for a warm make).
        """
    def num_distinct_actions(self) -> int:
        """
        Size of the fixed action-id range [0, n) of this configuration.
        """
    def num_players(self) -> int:
        ...
    def observation(self, player: typing.SupportsIndex, out: typing.Any = None, dtype: typing.Any = None) -> typing.Any:
        """
        Array of observation_shape(): what `player` sees, float32 by default. dtype=numpy.uint8 gives every feature as a byte code, losslessly: the float32 observation is code / denominator + offset (see observation_codec()); a feature outside its codec's 0..255 range raises ValueError. out= fills any writable numpy array of that dtype and size (any strides) and returns it.
        """
    def observation_codec(self) -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
        """
        (denominator, offset): float32 arrays of observation_shape() with which the uint8 observation decodes exactly: observation(p) == observation(p, dtype=numpy.uint8) / denominator + offset. They depend on the configuration only.
        """
    def observation_layout(self) -> str:
        """
        The observation layout as 'game/vVERSION/HASH': the game's observation version (bumped when the observation or the action ids change meaning) and a hash of observation_shape(), num_distinct_actions(), num_players() and observation_codec(). A trained network records it and refuses a state whose layout differs (tilecraft.baselines).
        """
    def observation_shape(self) -> tuple:
        ...
    def pending_tile(self) -> int:
        ...
    def phase(self) -> int:
        """
        The phase id: an index into phase_names().
        """
    def phase_name(self) -> str:
        """
        The name of the current phase: phase_names()[phase()] (the words of the text picture).
        """
    def positions(self) -> list:
        """
        Track index per marker (seats 0..3, then the virtual marker): -1 not entered, 0..47, 48 left.
        """
    def recomputed_groups(self, seat: typing.SupportsInt | typing.SupportsIndex) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        """
        The same two lists from a full recompute.
        """
    def religion_value(self, seat: typing.SupportsInt | typing.SupportsIndex, card: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def requirement(self, seat: typing.SupportsInt | typing.SupportsIndex, card: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, bool]:
        """
        (total requirement if the seat played the card now, whether it is met).
        """
    def resample_hidden(self, observer: typing.SupportsIndex, seed: typing.SupportsIndex) -> None:
        """
        Reshuffles everything `observer` cannot see (hidden cards, future draws) from `seed`, consistently with what it has seen. Use it on a clone before searching.
        """
    def returns(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Per-seat returns at the end of the game (zeros before); see the game's returns_mode.
        """
    def round(self) -> int:
        ...
    def scores(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Current scores per seat (final scores once terminal).
        """
    def shape_components(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Per shape, the most tiles of that shape in one connected component (kept incrementally).
        """
    def start_card(self, seat: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        The seat's hidden starting card while it is in hand, else -1.
        """
    def start_player(self) -> int:
        ...
    def string_to_action(self, text: typing.Any) -> int:
        ...
    def to_dict(self) -> dict:
        """
        The full state (RNG and hidden parts included) as a JSON-ready dict.
        """
    def to_json(self) -> typing.Any:
        """
        The full state as a JSON string; from_json() restores it exactly.
        """
    def track_occupancy(self) -> int:
        ...
    def units(self) -> tuple[int, int, int, int, int]:
        """
        (space, pencils left, hammers left, mode 1 pencils / 2 hammers / 3 both, generic types used mask).
        """
    def windows(self) -> list:
        """
        Card ids per window (Nature, Catalan, Religion) in reveal order.
        """
    def winners(self) -> list[int]:
        """
        Seats that won (several on a shared victory); [] before the end.
        """
class NimStateSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        A tree-search engine for this game. Options: iterations, seconds, exploration, rollout, rollout_depth, eval_scale, threads, seed, reuse_tree, determinize, max_nodes (tilecraft._core.mcts_options(); docs/search.md).
        """
    def act(self, state: NimState) -> int:
        """
        The most visited root action.
        """
    def reset(self) -> None:
        """
        Forgets the kept tree (call it before a new game).
        """
    def search(self, state: NimState) -> dict:
        """
        Searches from `state` (on re-determinized copies: its hidden parts are never read) and returns {action, visits, policy, values, iterations, nodes, seconds}; arrays are indexed by action id.
        """
class NimStateVector:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, config: dict, num_envs: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0, threads: typing.SupportsInt | typing.SupportsIndex = 1, learner: typing.SupportsInt | typing.SupportsIndex = -1, opponents: list = [], all_observations: bool = False, evaluators: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        N games held in C++ (use tilecraft.VectorGame, which validates its arguments). An opponent is a bot dict (self_play's) or {'kind': 'evaluator', 'index': k}, k < `evaluators`: then the k-th evaluator given to reset() and step(), evaluate(observations, legal_mask, players) -> (logits, values), plays it (the argmax of its logits over the legal actions).
        """
    def buffers(self) -> dict:
        """
        numpy views (no copies) of the buffers every call rewrites, by field name.
        """
    def legal_actions(self) -> tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.int64]]:
        """
        (flat, offsets): game i's legal actions are flat[offsets[i]:offsets[i+1]] (none while it awaits its reset).
        """
    def reset(self, seed: typing.Any = None, evaluators: list = []) -> None:
        """
        Starts a new episode in every game (from episode 0 of a new seed's stream), advanced to the learner's first decision (evaluator opponents called as in step()).
        """
    def sample_legal(self) -> None:
        """
        Draws one uniformly random legal action per game into the 'sample' buffer.
        """
    def seeds(self, env: typing.SupportsIndex) -> dict:
        """
        The seeds of game `env`'s current episode.
        """
    def state(self, env: typing.SupportsIndex) -> NimState:
        """
        A copy of game `env` as a state object (with its history).
        """
    def step(self, actions: typing.Any, evaluators: list = []) -> None:
        """
        Applies one action per game after checking them all; raises IllegalActionError naming the first bad env and action, and then applies nothing. Evaluator opponents are called once per round on all the games waiting for them. Ctrl-C stops it (the opponents' searches included) with KeyboardInterrupt, and an evaluator's error fails it; then only reset() is accepted.
        """
    @property
    def evaluators(self) -> int:
        """
        How many evaluators play opponent seats (reset() and step() take them).
        """
    @property
    def num_actions(self) -> int:
        ...
    @property
    def num_envs(self) -> int:
        ...
    @property
    def observation_shape(self) -> tuple:
        ...
    @property
    def players(self) -> int:
        ...
    @property
    def seed(self) -> int:
        ...
    @property
    def started(self) -> bool:
        ...
    @property
    def threads(self) -> int:
        ...
class NimStatePUCTSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        PUCT guided by an evaluator; use tilecraft.PUCTBot.
        """
    def search(self, state: NimState, evaluator: typing.Any, spent: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> dict:
        """
        Searches from `state` (a re-determinized copy) calling evaluator(observations, legal_mask, players) -> (logits float32 (B, A), values float32 (B, players)) on batches of at most batch_size leaves. `spent`: seconds of the move's time budget already used by the caller.
        """
class NimState:
    game_name: typing.ClassVar[str] = 'nim'
    PUCTSearcher = NimStatePUCTSearcher
    Searcher = NimStateSearcher
    Vector = NimStateVector
    @staticmethod
    def action_kinds() -> tuple[str, ...]:
        """
        The kinds of player actions, in id order (the kinds of action_ranges()).
        """
    @staticmethod
    def from_dict(data: typing.Any) -> NimState:
        ...
    @staticmethod
    def from_json(text: typing.Any) -> NimState:
        ...
    @staticmethod
    def locations() -> dict[str, int]:
        """
        Named card or tile locations, name -> number ({} for games without them).
        """
    @staticmethod
    def phase_names() -> tuple[str, ...]:
        """
        Every phase's name, indexed by phase id.
        """
    @staticmethod
    def puct_self_play(config: dict, bots: list, evaluators: list, n_games: typing.SupportsInt | typing.SupportsIndex, first_game: typing.SupportsInt | typing.SupportsIndex = 0, seed: typing.SupportsIndex = 0, concurrent: typing.SupportsInt | typing.SupportsIndex = 256, rotate: bool = True, record: bool = False, compact: bool = False) -> dict:
        """
        Batched self-play with PUCT bots guided by Python evaluators. compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    @staticmethod
    def self_play(config: dict, bots: list, n_games: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, rotate: bool = True, record: bool = False, compact: bool = False, progress: typing.Any = None) -> dict:
        """
        Plays n_games between built-in bots entirely in C++ (GIL released; Ctrl-C raises KeyboardInterrupt). compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    def __copy__(self) -> NimState:
        ...
    def __deepcopy__(self, memo: dict) -> NimState:
        ...
    def __eq__(self, arg0: typing.Any) -> typing.Any:
        """
        Content equality: same configuration and position (RNG and hidden parts included); the history is not compared.
        """
    def __hash__(self) -> int:
        """
        hash(state): from hash_key(); it changes when the state changes (do not mutate a state used as a key).
        """
    def __init__(self, config: typing.Any, seed: typing.SupportsIndex = 0) -> None:
        """
        A new game from a config dict (see tilecraft.make for validated options) and a seed.
        """
    def __reduce__(self) -> tuple:
        ...
    def __repr__(self) -> str:
        ...
    def action_kind(self, action: typing.SupportsIndex) -> str:
        """
        The kind of an action id (one of action_kinds()); IllegalActionError out of range.
        """
    def action_ranges(self) -> list[tuple[str, int, int]]:
        """
        [(kind, first, end), ...]: action ids first..end-1 are of that kind; in id order, without gaps, covering 0..num_distinct_actions()-1 for this state's configuration.
        """
    def action_to_string(self, action: typing.SupportsIndex) -> str:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Plays one action (or resolves a chance node with an outcome). Actions are Python ints or numpy integers (TypeError for bool, float, str). Raises IllegalActionError (a ValueError) naming the action and why it is illegal; the state is then unchanged.
        """
    def chance_outcomes(self) -> list:
        """
        [(outcome, probability), ...] at a chance node, [] elsewhere.
        """
    def clone(self) -> NimState:
        """
        An independent copy.
        """
    def config(self) -> dict:
        """
        The rule configuration as a dict.
        """
    def current_player(self) -> int:
        """
        Seat to act (0-based); -2 (tilecraft.CHANCE) at a chance node; -1 (tilecraft.TERMINAL) when the game is over.
        """
    def greedy_action(self, seed: typing.SupportsIndex) -> int:
        """
        The greedy bot's choice: the action with the best one-ply heuristic for the mover.
        """
    def hash_key(self) -> int:
        """
        A 64-bit content hash of the position (config and every saved field, RNG and hidden parts included; history excluded): equal states have equal keys. Computed on each call.
        """
    def heap(self) -> int:
        """
        Stones left on the heap.
        """
    def heuristic(self, player: typing.SupportsIndex) -> float:
        """
        The one-ply value the greedy bot maximises for `player` (the game's docs define it).
        """
    def history(self) -> list[int]:
        """
        Every action and chance outcome applied so far.
        """
    def is_chance_node(self) -> bool:
        ...
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        """
        Whether `action` (an int or numpy integer) is legal now; False for any out-of-range id.
        """
    def is_terminal(self) -> bool:
        ...
    def legal_action_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Bool numpy array of length num_distinct_actions(), True at the legal ids.
        """
    def legal_actions(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        Legal action ids as an ascending int32 numpy array (the outcomes at a chance node).
        """
    def max_chance_outcomes(self) -> int:
        ...
    def new_game(self, seed: typing.SupportsIndex) -> NimState:
        """
        A new game of this state's configuration (shared, not converted again) from `seed`: the state the class constructor gives for this config and seed (tilecraft.make uses it for a warm make).
        """
    def num_distinct_actions(self) -> int:
        """
        Size of the fixed action-id range [0, n) of this configuration.
        """
    def num_players(self) -> int:
        ...
    def observation(self, player: typing.SupportsIndex, out: typing.Any = None, dtype: typing.Any = None) -> typing.Any:
        """
        Array of observation_shape(): what `player` sees, float32 by default. dtype=numpy.uint8 gives every feature as a byte code, losslessly: the float32 observation is code / denominator + offset (see observation_codec()); a feature outside its codec's 0..255 range raises ValueError. out= fills any writable numpy array of that dtype and size (any strides) and returns it.
        """
    def observation_codec(self) -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
        """
        (denominator, offset): float32 arrays of observation_shape() with which the uint8 observation decodes exactly: observation(p) == observation(p, dtype=numpy.uint8) / denominator + offset. They depend on the configuration only.
        """
    def observation_layout(self) -> str:
        """
        The observation layout as 'game/vVERSION/HASH': the game's observation version (bumped when the observation or the action ids change meaning) and a hash of observation_shape(), num_distinct_actions(), num_players() and observation_codec(). A trained network records it and refuses a state whose layout differs (tilecraft.baselines).
        """
    def observation_shape(self) -> tuple:
        ...
    @typing.overload
    def phase(self) -> int:
        """
        The phase id: an index into phase_names().
        """
    @typing.overload
    def phase(self) -> int:
        """
        0 choosing the first player, 1 taking stones, 2 game over.
        """
    def phase_name(self) -> str:
        """
        The name of the current phase: phase_names()[phase()] (the words of the text picture).
        """
    def resample_hidden(self, observer: typing.SupportsIndex, seed: typing.SupportsIndex) -> None:
        """
        Reshuffles everything `observer` cannot see (hidden cards, future draws) from `seed`, consistently with what it has seen. Use it on a clone before searching.
        """
    def returns(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Per-seat returns at the end of the game (zeros before); see the game's returns_mode.
        """
    def scores(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Current scores per seat (final scores once terminal).
        """
    def string_to_action(self, text: typing.Any) -> int:
        ...
    def to_dict(self) -> dict:
        """
        The full state (RNG and hidden parts included) as a JSON-ready dict.
        """
    def to_json(self) -> typing.Any:
        """
        The full state as a JSON string; from_json() restores it exactly.
        """
    def winners(self) -> list[int]:
        """
        Seats that won (several on a shared victory); [] before the end.
        """
class WarsawStateSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        A tree-search engine for this game. Options: iterations, seconds, exploration, rollout, rollout_depth, eval_scale, threads, seed, reuse_tree, determinize, max_nodes (tilecraft._core.mcts_options(); docs/search.md).
        """
    def act(self, state: WarsawState) -> int:
        """
        The most visited root action.
        """
    def reset(self) -> None:
        """
        Forgets the kept tree (call it before a new game).
        """
    def search(self, state: WarsawState) -> dict:
        """
        Searches from `state` (on re-determinized copies: its hidden parts are never read) and returns {action, visits, policy, values, iterations, nodes, seconds}; arrays are indexed by action id.
        """
class WarsawStateVector:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, config: dict, num_envs: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0, threads: typing.SupportsInt | typing.SupportsIndex = 1, learner: typing.SupportsInt | typing.SupportsIndex = -1, opponents: list = [], all_observations: bool = False, evaluators: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        N games held in C++ (use tilecraft.VectorGame, which validates its arguments). An opponent is a bot dict (self_play's) or {'kind': 'evaluator', 'index': k}, k < `evaluators`: then the k-th evaluator given to reset() and step(), evaluate(observations, legal_mask, players) -> (logits, values), plays it (the argmax of its logits over the legal actions).
        """
    def buffers(self) -> dict:
        """
        numpy views (no copies) of the buffers every call rewrites, by field name.
        """
    def legal_actions(self) -> tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.int64]]:
        """
        (flat, offsets): game i's legal actions are flat[offsets[i]:offsets[i+1]] (none while it awaits its reset).
        """
    def reset(self, seed: typing.Any = None, evaluators: list = []) -> None:
        """
        Starts a new episode in every game (from episode 0 of a new seed's stream), advanced to the learner's first decision (evaluator opponents called as in step()).
        """
    def sample_legal(self) -> None:
        """
        Draws one uniformly random legal action per game into the 'sample' buffer.
        """
    def seeds(self, env: typing.SupportsIndex) -> dict:
        """
        The seeds of game `env`'s current episode.
        """
    def state(self, env: typing.SupportsIndex) -> WarsawState:
        """
        A copy of game `env` as a state object (with its history).
        """
    def step(self, actions: typing.Any, evaluators: list = []) -> None:
        """
        Applies one action per game after checking them all; raises IllegalActionError naming the first bad env and action, and then applies nothing. Evaluator opponents are called once per round on all the games waiting for them. Ctrl-C stops it (the opponents' searches included) with KeyboardInterrupt, and an evaluator's error fails it; then only reset() is accepted.
        """
    @property
    def evaluators(self) -> int:
        """
        How many evaluators play opponent seats (reset() and step() take them).
        """
    @property
    def num_actions(self) -> int:
        ...
    @property
    def num_envs(self) -> int:
        ...
    @property
    def observation_shape(self) -> tuple:
        ...
    @property
    def players(self) -> int:
        ...
    @property
    def seed(self) -> int:
        ...
    @property
    def started(self) -> bool:
        ...
    @property
    def threads(self) -> int:
        ...
class WarsawStatePUCTSearcher:
    @staticmethod
    def __reduce_ex__(*args, **kwargs):
        """
        (self: object, protocol: object) -> object
        """
    def __init__(self, **kwargs) -> None:
        """
        PUCT guided by an evaluator; use tilecraft.PUCTBot.
        """
    def search(self, state: WarsawState, evaluator: typing.Any, spent: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> dict:
        """
        Searches from `state` (a re-determinized copy) calling evaluator(observations, legal_mask, players) -> (logits float32 (B, A), values float32 (B, players)) on batches of at most batch_size leaves. `spent`: seconds of the move's time budget already used by the caller.
        """
class WarsawState:
    game_name: typing.ClassVar[str] = 'warsaw'
    PUCTSearcher = WarsawStatePUCTSearcher
    Searcher = WarsawStateSearcher
    Vector = WarsawStateVector
    @staticmethod
    def action_kinds() -> tuple[str, ...]:
        """
        The kinds of player actions, in id order (the kinds of action_ranges()).
        """
    @staticmethod
    def card_ids() -> dict:
        """
        The card id ranges, name -> (first, end): era cards (the deck's capacity), one starting card per seat, one card per milestone slot.
        """
    @staticmethod
    def from_dict(data: typing.Any) -> WarsawState:
        ...
    @staticmethod
    def from_json(text: typing.Any) -> WarsawState:
        ...
    @staticmethod
    def locations() -> dict[str, int]:
        """
        Named card or tile locations, name -> number ({} for games without them).
        """
    @staticmethod
    def phase_names() -> tuple[str, ...]:
        """
        Every phase's name, indexed by phase id.
        """
    @staticmethod
    def puct_self_play(config: dict, bots: list, evaluators: list, n_games: typing.SupportsInt | typing.SupportsIndex, first_game: typing.SupportsInt | typing.SupportsIndex = 0, seed: typing.SupportsIndex = 0, concurrent: typing.SupportsInt | typing.SupportsIndex = 256, rotate: bool = True, record: bool = False, compact: bool = False) -> dict:
        """
        Batched self-play with PUCT bots guided by Python evaluators. compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    @staticmethod
    def self_play(config: dict, bots: list, n_games: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, rotate: bool = True, record: bool = False, compact: bool = False, progress: typing.Any = None) -> dict:
        """
        Plays n_games between built-in bots entirely in C++ (GIL released; Ctrl-C raises KeyboardInterrupt). compact: record observations as uint8 codes (training["observation_codec"] decodes them). Use tilecraft.self_play.
        """
    def __copy__(self) -> WarsawState:
        ...
    def __deepcopy__(self, memo: dict) -> WarsawState:
        ...
    def __eq__(self, arg0: typing.Any) -> typing.Any:
        """
        Content equality: same configuration and position (RNG and hidden parts included); the history is not compared.
        """
    def __hash__(self) -> int:
        """
        hash(state): from hash_key(); it changes when the state changes (do not mutate a state used as a key).
        """
    def __init__(self, config: typing.Any, seed: typing.SupportsIndex = 0) -> None:
        """
        A new game from a config dict (see tilecraft.make for validated options) and a seed.
        """
    def __reduce__(self) -> tuple:
        ...
    def __repr__(self) -> str:
        ...
    def _repr_svg_(self) -> str:
        ...
    def action_kind(self, action: typing.SupportsIndex) -> str:
        """
        The kind of an action id (one of action_kinds()); IllegalActionError out of range.
        """
    def action_ranges(self) -> list[tuple[str, int, int]]:
        """
        [(kind, first, end), ...]: action ids first..end-1 are of that kind; in id order, without gaps, covering 0..num_distinct_actions()-1 for this state's configuration.
        """
    def action_to_string(self, action: typing.SupportsIndex) -> str:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Plays one action (or resolves a chance node with an outcome). Actions are Python ints or numpy integers (TypeError for bool, float, str). Raises IllegalActionError (a ValueError) naming the action and why it is illegal; the state is then unchanged.
        """
    def area_counts(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Areas per type (park, residential, commercial, industrial, cultural, transport, whole-card).
        """
    def card_location(self, card: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def chance_outcomes(self) -> list:
        """
        [(outcome, probability), ...] at a chance node, [] elsewhere.
        """
    def clone(self) -> WarsawState:
        """
        An independent copy.
        """
    def coins(self) -> list:
        ...
    def config(self) -> dict:
        """
        The rule configuration as a dict.
        """
    def current_player(self) -> int:
        """
        Seat to act (0-based); -2 (tilecraft.CHANCE) at a chance node; -1 (tilecraft.TERMINAL) when the game is over.
        """
    def district(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        [(x, y, top card id, rotation, stack height)] in frame coordinates, row by row.
        """
    def district_connected(self, seat: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
    def era(self) -> int:
        """
        Current era 1..6.
        """
    def greedy_action(self, seed: typing.SupportsIndex) -> int:
        """
        The greedy bot's choice: the action with the best one-ply heuristic for the mover.
        """
    def hand(self, seat: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Card ids in a seat's hand (hidden information: for tests and tools, not bots).
        """
    def hash_key(self) -> int:
        """
        A 64-bit content hash of the position (config and every saved field, RNG and hidden parts included; history excluded): equal states have equal keys. Computed on each call.
        """
    def heuristic(self, player: typing.SupportsIndex) -> float:
        """
        The one-ply value the greedy bot maximises for `player` (the game's docs define it).
        """
    def history(self) -> list[int]:
        """
        Every action and chance outcome applied so far.
        """
    def income(self, seat: typing.SupportsInt | typing.SupportsIndex) -> dict:
        """
        What an income phase would pay the seat now, step by step (WA-INC-1).
        """
    def is_chance_node(self) -> bool:
        ...
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        """
        Whether `action` (an int or numpy integer) is legal now; False for any out-of-range id.
        """
    def is_terminal(self) -> bool:
        ...
    def legal_action_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Bool numpy array of length num_distinct_actions(), True at the legal ids.
        """
    def legal_actions(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        Legal action ids as an ascending int32 numpy array (the outcomes at a chance node).
        """
    def max_chance_outcomes(self) -> int:
        ...
    def milestones(self) -> list:
        """
        [(side, owner)] per slot; owner -1 not yet awarded, -2 discarded.
        """
    def new_game(self, seed: typing.SupportsIndex) -> WarsawState:
        """
        A new game of this state's configuration (shared, not converted again) from `seed`: the state the class constructor gives for this config and seed (tilecraft.make uses it for a warm make).
        """
    def num_distinct_actions(self) -> int:
        """
        Size of the fixed action-id range [0, n) of this configuration.
        """
    def num_players(self) -> int:
        ...
    def observation(self, player: typing.SupportsIndex, out: typing.Any = None, dtype: typing.Any = None) -> typing.Any:
        """
        Array of observation_shape(): what `player` sees, float32 by default. dtype=numpy.uint8 gives every feature as a byte code, losslessly: the float32 observation is code / denominator + offset (see observation_codec()); a feature outside its codec's 0..255 range raises ValueError. out= fills any writable numpy array of that dtype and size (any strides) and returns it.
        """
    def observation_codec(self) -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
        """
        (denominator, offset): float32 arrays of observation_shape() with which the uint8 observation decodes exactly: observation(p) == observation(p, dtype=numpy.uint8) / denominator + offset. They depend on the configuration only.
        """
    def observation_layout(self) -> str:
        """
        The observation layout as 'game/vVERSION/HASH': the game's observation version (bumped when the observation or the action ids change meaning) and a hash of observation_shape(), num_distinct_actions(), num_players() and observation_codec(). A trained network records it and refuses a state whose layout differs (tilecraft.baselines).
        """
    def observation_shape(self) -> tuple:
        ...
    def park_score(self, n: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        VP of a park touching n distinct residential areas (WA-SCORE-1).
        """
    def phase(self) -> int:
        """
        The phase id: an index into phase_names().
        """
    def phase_name(self) -> str:
        """
        The name of the current phase: phase_names()[phase()] (the words of the text picture).
        """
    def pick_round(self) -> int:
        """
        Pick round 0..3 of the era's draft.
        """
    def picked_card(self, seat: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        The seat's picked (or revealed) card id, or -1.
        """
    def removals_needed(self, seat: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def resample_hidden(self, observer: typing.SupportsIndex, seed: typing.SupportsIndex) -> None:
        """
        Reshuffles everything `observer` cannot see (hidden cards, future draws) from `seed`, consistently with what it has seen. Use it on a clone before searching.
        """
    def returns(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Per-seat returns at the end of the game (zeros before); see the game's returns_mode.
        """
    def scores(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Current scores per seat (final scores once terminal).
        """
    def shown_types(self, seat: typing.SupportsInt | typing.SupportsIndex, x: typing.SupportsInt | typing.SupportsIndex, y: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Types shown in the NW, NE, SE, SW quadrants at a position (6 public, 7 milestone), [] if empty.
        """
    def string_to_action(self, text: typing.Any) -> int:
        ...
    def to_dict(self) -> dict:
        """
        The full state (RNG and hidden parts included) as a JSON-ready dict.
        """
    def to_json(self) -> typing.Any:
        """
        The full state as a JSON string; from_json() restores it exactly.
        """
    def vp(self) -> list:
        ...
    def winners(self) -> list[int]:
        """
        Seats that won (several on a shared victory); [] before the end.
        """
    def within_limit(self, seat: typing.SupportsInt | typing.SupportsIndex) -> bool:
        ...
def _restore_state(cls: typing.Any, saved: typing.Any) -> typing.Any:
    ...
def _test_fail_worker(k: typing.SupportsInt | typing.SupportsIndex, kind: str = 'memory') -> None:
    """
    Tests only: the k-th unit of work run on a worker thread from now on throws (std::bad_alloc for 'memory', InvalidConfigError for 'config', RuntimeError for 'runtime'); k = 0 turns it off.
    """
def azul_random_playouts(config: dict, n: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, progress: typing.Any = None) -> dict:
    """
    n random games in C++ (GIL released; Ctrl-C stops them with KeyboardInterrupt). progress: None or a callable given the number of finished games every 50 ms.
    """
def castle_random_playouts(config: dict, n: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, progress: typing.Any = None) -> dict:
    """
    n random games in C++ (GIL released; Ctrl-C stops them with KeyboardInterrupt). progress: None or a callable given the number of finished games every 50 ms.
    """
def check_mcts_options(who: str, **kwargs) -> None:
    """
    Checks MCTS / ISMCTS search options as Searcher(**options) does (ValueError naming `who`, the option and its range).
    """
def check_puct_options(**kwargs) -> None:
    """
    Checks PUCT search options as PUCTSearcher(**options) does (ValueError naming the option and its range).
    """
def gaudi_random_playouts(config: dict, n: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, progress: typing.Any = None) -> dict:
    """
    n random games in C++ (GIL released; Ctrl-C stops them with KeyboardInterrupt). progress: None or a callable given the number of finished games every 50 ms.
    """
def mcts_options() -> list:
    """
    The MCTS / ISMCTS search options as MctsConfig declares them, in order (the keys as puct_options()'s).
    """
def mix_seed(seed: typing.SupportsInt | typing.SupportsIndex, stream: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    The engine's seed mixer (cpp/core/rng.hpp): a 64-bit seed for stream `stream` of `seed`.
    """
def nim_random_playouts(config: dict, n: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, progress: typing.Any = None) -> dict:
    """
    n random games in C++ (GIL released; Ctrl-C stops them with KeyboardInterrupt). progress: None or a callable given the number of finished games every 50 ms.
    """
def puct_options() -> list:
    """
    The PUCT search options as PuctConfig declares them, in order: dicts with name, kind ('integer', 'number', 'flag', 'seed' or 'choice'), default, low, high (None: no bound), choices, range and doc.
    """
def warsaw_random_playouts(config: dict, n: typing.SupportsIndex, seed: typing.SupportsIndex = 0, threads: typing.SupportsIndex = 1, progress: typing.Any = None) -> dict:
    """
    n random games in C++ (GIL released; Ctrl-C stops them with KeyboardInterrupt). progress: None or a callable given the number of finished games every 50 ms.
    """
AZUL_STATE_BYTES: int = 280
CASTLE_STATE_BYTES: int = 17760
CHANCE: int = -2
GAUDI_STATE_BYTES: int = 1808
MAX_SEARCH_SECONDS: float = 3600.0
PUCT_MAX_SIMULATIONS: int = 10000000
TERMINAL: int = -1
WARSAW_STATE_BYTES: int = 1624
