"""Play a match on a Tavli server from the terminal: ``tavli join LINK``; or a tournament's
matches one after another: ``tavli join SERVER --tournament ID`` (``RemoteTournament``).

``LINK`` is a link the server gave for a seat (``http://HOST/match/ID#t=TOKEN``: the
creator's own, or the one he sent a friend). The client speaks the server's WebSocket protocol
(docs/web.md): it rolls for its player at once, draws the board as ``tavli play`` does (the
game's moves, as the server lists them, played again by the rules from the game's start), reads
his plays and commands, says the opponent's moves as they come, and asks him about the
opponent's offers to resign. Everything is said in English or Greek (``tavli.terminal.words.Words``).

>>> Link.parse("http://127.0.0.1:8000/match/k3J9xQ2mWcA#t=abc")
Link(socket='ws://127.0.0.1:8000/ws/k3J9xQ2mWcA', page='http://127.0.0.1:8000/match/k3J9xQ2mWcA', token='abc')
"""

from __future__ import annotations

import contextlib
import datetime
import json
import re
import secrets
import time
import urllib.parse
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.text import Text

from tavli.dice import Dice
from tavli.errors import TavliError, translations
from tavli.game import Game
from tavli.match import TAVLI_SEQUENCE
from tavli.position import GameResult, LegalPlays, Play, Position
from tavli.terminal.board import board
from tavli.terminal.prompt import LeaveMatch, answer_prompt, console_reader, numbered_plays, resignation
from tavli.terminal.styles import ERROR_STYLE, NOTE_STYLE
from tavli.terminal.words import (
    FIELD,
    Words,
    accept_prompt,
    command_words,
    header_words,
    hint_lines,
    match_won_words,
    mover_text,
    offer_words,
    result_words,
    score_words,
)
from tavli.variants import BLACK, WHITE, Color

Message = dict[str, Any]
MESSAGE_GAP = 0.1
"""Seconds at least between two messages: the server takes 20 a second from a connection."""
CLAIM_MARGIN = 1.0
"""Seconds past the server's ``claim_at`` before the player is asked whether to claim: the
server's clock and this one may differ a little."""
CLAIM_RETRY = 10.0
"""Seconds before asking again after the server refused a claim (the opponent came back, or
the clocks differ more than ``CLAIM_MARGIN``)."""
COLORS = {"white": WHITE, "black": BLACK}


SESSION_COOKIE = "tavli_session"
"""The server's session cookie (``tavli.server.cafe.accounts.COOKIE``; the terminal does not import the server)."""


class RemoteError(TavliError):
    """A link that names no match, or a server that cannot be reached or answers out of turn."""


def refusal(said: str) -> RemoteError:
    """A RemoteError of words already said in the player's language (``Words.plain``)."""
    return RemoteError("{said}", said=said)


@dataclass(frozen=True)
class Link:
    """Where a seat's link leads: the match's WebSocket, its page, and the seat's token."""

    socket: str
    page: str
    token: str

    @classmethod
    def parse(cls, text: str) -> Link:
        """A link as the server gives it; RemoteError for anything else."""
        parts = urllib.parse.urlsplit(text.strip())
        found = re.fullmatch(r"/match/([A-Za-z0-9_-]{1,64})", parts.path)
        token = urllib.parse.parse_qs(parts.fragment).get("t", [""])[0]
        if parts.scheme not in ("http", "https") or not parts.netloc or found is None or not token:
            raise RemoteError("not a match link: {link!r} (a link like http://HOST/match/ID#t=TOKEN, as the "
                              "server gives it, or a server's address for its open matches)", link=text)
        socket = "ws" if parts.scheme == "http" else "wss"
        return cls(f"{socket}://{parts.netloc}/ws/{found.group(1)}", f"{parts.scheme}://{parts.netloc}{parts.path}",
                   token)


def server_address(text: str) -> str | None:
    """``http://HOST[:PORT]`` from a server's address with no match in it, or None.

    >>> server_address("http://127.0.0.1:8000/"), server_address("http://h/match/abc#t=x")
    ('http://127.0.0.1:8000', None)
    """
    parts = urllib.parse.urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") or parts.fragment:
        return None
    return f"{parts.scheme}://{parts.netloc}"


def _request(url: str, method: str = "GET", body: Message | None = None, cookie: str | None = None,
             ) -> tuple[int, Any]:
    """An HTTP request to the server (``body`` sent as JSON, with the session ``cookie`` if
    logged in): its status and its JSON (None for an answer that is not JSON); RemoteError when it
    cannot be made."""
    _, answer = _exchange(url, method, body, cookie)
    return answer


def _exchange(url: str, method: str = "GET", body: Message | None = None, cookie: str | None = None,
              ) -> tuple[Any, tuple[int, Any]]:
    """``_request``, with the answer's headers too (None for an error)."""
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data else {}
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            raw = answer.read()
    except urllib.error.HTTPError as e:
        with contextlib.suppress(ValueError):
            return None, (e.code, json.load(e))
        return None, (e.code, {})
    except (OSError, ValueError) as e:
        raise RemoteError("cannot reach {server}: {why}", server=url, why=str(e) or type(e).__name__) from None
    try:
        return answer.headers, (answer.status, json.loads(raw))
    except ValueError:  # a page, not JSON: no Tavli server answers so
        return answer.headers, (answer.status, None)


def log_in(server: str, user: str, password: str) -> str:
    """Log in to ``server`` (``POST /api/session``): the session's cookie for the requests and the
    match's connection. RemoteError, in the server's one line, for a refused login."""
    headers, (status, answer) = _exchange(f"{server}/api/session", "POST", {"name": user, "password": password})
    if status != 200 or headers is None:
        why = answer.get("error") if isinstance(answer, dict) else None
        raise RemoteError("{server} refused the login: {why}", server=server, why=why or f"HTTP {status}")
    for value in headers.get_all("Set-Cookie") or []:
        pair = value.split(";", 1)[0].strip()
        if pair.startswith(f"{SESSION_COOKIE}="):
            return str(pair)
    raise RemoteError("{server} refused the login: {why}", server=server, why="no session cookie")


def log_out(server: str, cookie: str) -> None:
    with contextlib.suppress(RemoteError):
        _request(f"{server}/api/session", "DELETE", cookie=cookie)


def choose_open_match(server: str, console: Console, read_line: Callable[[str], str], words: Words,
                      name: str | None = None, cookie: str | None = None) -> str | None:
    """List the server's open matches (``GET /api/open``), numbered; take the seat of the one the
    player chooses (``POST /api/open/ID``, with his ``name``) and return its link, or None when
    he takes none."""
    while True:
        status, found = _request(f"{server}/api/open")
        listed = found.get("matches") if status == 200 and isinstance(found, dict) else None
        if not isinstance(listed, list):
            raise RemoteError("{server} did not list its open matches: is it a Tavli server?", server=server)
        if not listed:
            console.print(words("No match is waiting on {server} now: make one in the browser against “Anyone on "
                                "this server”, or ask a friend for his link.", server=server))
            return None
        console.print(words("Open matches on {server}:", "bold", server=server))
        for number, m in enumerate(listed, 1):
            games = [str(g) for g in m.get("games", [])]
            title = (words.plain("Tavli") if tuple(games) == TAVLI_SEQUENCE else
                     ", ".join(words.game(g) for g in games))
            waited = int(m.get("waiting", 0))
            wait = (words.plain("{count} s", count=waited) if waited < 60 else
                    words.plain("{count} min", count=waited // 60))
            line = words("  {number}) {games} · to {length} · you play {side} · waiting {wait}", number=number,
                         games=title, length=m.get("length"), side=words.color(COLORS[m["seat"]]), wait=wait)
            if m.get("name"):
                line.append(f" · {m['name']}")
            console.print(line)
        answer = read_line(words.plain("Which match will you join? (its number; Enter for none) ")).strip()
        if not answer.isdecimal() or not 1 <= int(answer) <= len(listed):
            return None
        status, seat = _request(f"{server}/api/open/{urllib.parse.quote(str(listed[int(answer) - 1]['match']))}",
                                "POST", {"name": name} if name else {}, cookie)
        if status == 201 and isinstance(seat, dict) and "play" in seat:
            return server + str(seat["play"])
        said = reason_words(seat.get("reason"), words.language) if isinstance(seat, dict) else ""
        if status == 409 or not said:
            console.print(words("✗ someone took that seat first: choose another.", ERROR_STYLE))
        else:  # a refusal of the server's own (too many new matches, a bad name) in its words
            console.print(words("✗ {why}", ERROR_STYLE, why=said))


def new_match(server: str, request: Message, console: Console, words: Words, cookie: str | None = None) -> str:
    """Make a match on the server (``POST /api/matches`` with ``request``: the opponent, length,
    games, seat and house rules, as docs/web.md has them); say the links to share; return the
    creator's link. RemoteError, in one line, for a match the server will not make."""
    status, made = _request(f"{server}/api/matches", "POST", request, cookie)
    if status != 201 or not isinstance(made, dict) or "play" not in made:
        why = made.get("error") if isinstance(made, dict) else None
        raise RemoteError("{server} made no match: {why}", server=server, why=why or f"HTTP {status}")
    if made.get("friend"):
        console.print(words("Send your friend this link: {link}", link=(server + made["friend"], "bold")),
                      soft_wrap=True)
    if made.get("open"):
        console.print(words("The match is open: anyone on {server} can take the other seat from the start page or "
                            "with tavli join {server}.", server=server), soft_wrap=True)
    console.print(words("Spectators' link: {link}; yours, to come back: {mine}", link=server + made["watch"],
                        mine=server + made["play"]), soft_wrap=True)
    return server + str(made["play"])


GUEST_COOKIE = "tavli_guest"
"""The cookie that makes a guest one person in the server's lobby (``tavli.server.cafe.lobby``)."""


def seek_match(server: str, request: Message, console: Console, read_line: Callable[[str], str], words: Words,
               cookie: str | None = None) -> str:
    """Play now in the server's lobby (``POST /api/play`` with ``request``: length, games, clock):
    paired at once, or once someone asks for the same match (the lobby's WebSocket says so);
    a bot offered after a while alone, which the player may take. The player's link; RemoteError
    in one line for a request the server refuses."""
    from websockets.sync.client import connect

    jar = "; ".join(filter(None, [cookie, f"{GUEST_COOKIE}={secrets.token_urlsafe(18)}"]))
    lobby_url = server.replace("http", "ws", 1) + "/ws/lobby"
    try:
        lobby = connect(lobby_url, open_timeout=30, additional_headers={"Cookie": jar})
    except (OSError, TimeoutError, ValueError) as e:
        raise RemoteError("cannot reach {socket}: {why}", socket=lobby_url, why=str(e) or type(e).__name__) from None
    with lobby:
        status, found = _request(f"{server}/api/play", "POST", request, jar)
        if status not in (201, 202) or not isinstance(found, dict):
            why = found.get("error") if isinstance(found, dict) else None
            raise RemoteError("{server} made no match: {why}", server=server, why=why or f"HTTP {status}")
        seat = found.get("paired")
        if seat is None:
            console.print(words("Waiting in the lobby for an opponent who asks for the same match (Ctrl-C to leave).",
                                NOTE_STYLE))
            seat = _wait_for_pairing(server, lobby, found["seek"], console, read_line, words, jar)
    console.print(words("Paired: match {match}, you play {side}.", "bold", match=seat["match"],
                        side=words.color(COLORS[seat["seat"]])))
    return server + str(seat["play"])


def _wait_for_pairing(server: str, lobby: Any, seek: Message, console: Console, read_line: Callable[[str], str],
                      words: Words, jar: str) -> Message:
    """The lobby's messages until this player's match is made (or he takes the bot offered)."""
    while True:
        message = json.loads(lobby.recv())
        if message.get("type") == "paired":
            return dict(message)
        if message.get("type") != "bot":
            continue
        answer = read_line(words.plain("No one yet: play {level}, a bot (about {rating}), instead? [y/N] ",
                                       level=message["level"], rating=round(message["rating"])))
        with contextlib.suppress(TimeoutError):  # someone came while the player thought
            while (late := json.loads(lobby.recv(0))).get("type") != "paired":
                pass
            return dict(late)
        if answer.strip().lower() in ("y", "yes", "ν", "ναι"):
            _request(f"{server}/api/seeks/{urllib.parse.quote(str(seek['id']))}", "DELETE", None, jar)
            status, made = _request(f"{server}/api/matches", "POST", {
                "opponent": message["level"], "length": seek["length"], "games": ",".join(seek["games"])}, jar)
            if status == 201 and isinstance(made, dict):
                return made


def clock_text(words: Words, clock: Mapping[str, Any] | None) -> Text | None:
    """Both clocks as the board shows them: each side's reserve left (m:ss), and whose runs, with
    the delay left of his turn; None for a match without a clock.

    >>> str(clock_text(Words(), {"white": 83000, "black": 5000, "running": "black", "delay": 8000, "delay_left": 3000}))
    'Clocks: ○ White 1:23 · ● Black 0:05 (+3 s), running'
    """
    if not clock:
        return None
    parts = []
    for name, color in COLORS.items():
        left = max(0, -(-int(clock[name]) // 1000))
        shown = f"{left // 60}:{left % 60:02d}"
        if clock.get("running") == name and clock.get("delay_left"):
            shown += f" (+{-(-int(clock['delay_left']) // 1000)} s)"
        parts.append(Text.assemble(mover_text(color, words.color(color)), " ", shown))
    running = clock.get("running")
    if running == "black":
        return words("Clocks: {white} · {black}, running", white=parts[0], black=parts[1])
    if running == "white":
        return words("Clocks: {white}, running · {black}", white=parts[0], black=parts[1])
    return words("Clocks: {white} · {black}", white=parts[0], black=parts[1])


def game_position(game: Mapping[str, Any], turn: Color) -> Position:
    """The board of a state's game: its moves played again from its start by the rules (the
    game's first mover is the first move's, or ``turn`` before any move)."""
    moves = game["moves"]
    first = COLORS[moves[0]["color"]] if moves else turn
    played = Game(game["rules"], first)
    for move in moves:
        played.play(Dice(*move["dice"]), move["play"] or None)
    return played.position


def reason_words(reason: Any, language: str) -> str:
    """A reason the server sent (``{"text", "template", "params"}``) in ``language``: the words
    of its template with its values, each reason within said the same way; its text where the
    language has no words for it."""
    if not isinstance(reason, dict):
        return str(reason)
    words = translations(language).get(str(reason.get("template")))
    params = reason.get("params") or {}
    if words is None or not isinstance(params, dict):
        return str(reason.get("text", ""))
    return FIELD.sub(lambda m: reason_words(params.get(m.group(1), ""), language), words)


@dataclass
class RemoteMatch:
    """One seat of a match on a server, played at the terminal until the match ends or the
    player leaves (the match stays on the server: the same link brings him back)."""

    send_message: Callable[[Message], None]
    receive: Callable[[float | None], Message]
    """The next message, waiting at most so many seconds (None: as long as it takes); TimeoutError
    when none came."""
    console: Console
    read_line: Callable[[str], str]
    words: Words = field(default_factory=Words)
    me: Color = WHITE
    told: dict[int, int] = field(default_factory=dict)
    """How many moves of each game have been said."""
    ended: set[int] = field(default_factory=set)
    """The games whose end has been said."""
    waiting_said: bool = False
    by_account: bool = False
    """Whether the seat was taken by the account's session (a tournament's match): no link was sent."""
    sent_at: float = 0.0
    held: list[Message] = field(default_factory=list)
    """States that came while a hint was awaited, for ``reply`` to take first."""
    acted: int | None = None
    """The ``seq`` of the last state acted on: each state is acted on once (a state can come
    again unchanged, as a player joins or leaves)."""
    claims_declined: set[tuple[int, float]] = field(default_factory=set)
    """The absences (a state's ``seq`` and ``claim_at``) the player chose not to claim."""
    claim_retry: float = 0.0
    """``time.monotonic()`` before which no claim is asked for again, after a refusal."""

    # -- output ---------------------------------------------------------------
    def say(self, template: str, style: str = "", /, **params: object) -> None:
        self.console.print(self.words(template, style, **params))

    def side(self, state: Message, color: Color) -> Text:
        """``● Black (expert)``, ``○ White (you)``, ``● Black (friend)``."""
        player = state["players"]["white" if color == WHITE else "black"]
        side = self.words.color(color)
        if color == self.me:
            name = self.words.plain("{side} (you)", side=side)
        elif player["kind"] == "bot":
            name = self.words.plain("{side} ({kind})", side=side, kind=self.words.plain(str(player["level"])))
        elif player.get("name"):
            name = self.words.plain("{side} ({kind})", side=side, kind=str(player["name"]))
        else:
            name = self.words.plain("{side} (friend)", side=side)
        return mover_text(color, name)

    def score_text(self, state: Message) -> Text:
        score = {color: state["score"][name] for name, color in COLORS.items()}
        return score_words(self.words, score, state["settings"]["length"])

    # -- the protocol ---------------------------------------------------------
    def send(self, message: Message) -> None:
        """Send ``message``, keeping well under the server's limit of messages a second."""
        wait = self.sent_at + MESSAGE_GAP - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.send_message(message)
        self.sent_at = time.monotonic()

    def reply(self, state: Message) -> Message:
        """The next state; after a refusal (said), ``state`` again, as nothing changed."""
        while True:
            message = self.held.pop(0) if self.held else self.receive(None)
            if message.get("type") == "state":
                return message
            if message.get("type") == "error":
                if message.get("code") == "rate-limited":  # never at MESSAGE_GAP; should it come, act again
                    self.acted = None
                    time.sleep(1.0)
                    return state
                if message.get("code") != "stale":  # a newer state is on its way
                    said = reason_words(message.get("reason"), self.words.language) or str(message.get("message"))
                    self.say("✗ {why}", ERROR_STYLE, why=said)
                return state

    # -- the flow -------------------------------------------------------------
    def run(self, token: str | None, name: str | None = None) -> Color | None:
        """Join with ``token`` (giving the player's ``name``, if any; with no token, the seat of
        the account whose session the connection carries) and play until the match is over;
        return the winner (None for a match aborted)."""
        self.send({"type": "hello"} | ({"token": token} if token else {}) | ({"name": name} if name else {}))
        state = self.reply({})
        if not state:
            raise RemoteError("the server did not let this link join its match")
        self.by_account = token is None
        if state["you"] not in COLORS and token is None:
            raise refusal(self.words.plain("the server gave your account no seat in this match"))
        if state["you"] not in COLORS:
            raise RemoteError("this link is a spectator's: join with a player's link")
        self.me = COLORS[state["you"]]
        self.say("Joined the match: {score}.", score=self.score_text(state))
        while True:
            self.tell(state)
            if state.get("aborted"):
                self.say("The match was aborted: no result.")
                return None
            if state["over"]:
                winner = COLORS[state["winner"]]
                score = state["score"]
                self.console.print(match_won_words(self.words, self.side(state, winner), score[state["winner"]],
                                                   score["black" if winner == WHITE else "white"],
                                                   state["settings"]["length"]))
                return winner
            offer = state.get("offer")
            mine = state["turn"] == state["you"] and not offer
            if state["seq"] == self.acted:
                state = self.reply(state)
            elif offer and offer["kind"] == "resign" and COLORS[offer["from"]] != self.me:
                self.acted = state["seq"]
                state = self.answer_offer(state, offer)
            elif mine and state["can_roll"]:
                self.acted = state["seq"]
                self.send({"type": "roll", "seq": state["seq"]})
                state = self.reply(state)
            elif mine and state["can_play"]:
                self.acted = state["seq"]
                state = self.take_turn(state)
            else:
                state = self.wait(state)

    def wait(self, state: Message) -> Message:
        """The next state while the opponent is to act. When he is away long enough for the
        game to be claimed (the server's ``claim_at``), the player is asked whether to claim it,
        once for each absence."""
        claim_at = state.get("claim_at")
        if claim_at is None or (state["seq"], claim_at) in self.claims_declined or self.held:
            return self.reply(state)
        delay = max(float(claim_at) + CLAIM_MARGIN - time.time(), self.claim_retry - time.monotonic(), 0.0)
        try:
            self.held.append(self.receive(delay))
        except TimeoutError:
            return self.claim(state, float(claim_at))
        return self.reply(state)

    def claim(self, state: Message, claim_at: float) -> Message:
        """Ask the player whether to claim the game of an absent opponent, and claim it if he will."""
        prompt = self.words.plain("Your opponent is away. Claim game {n}? It counts as won by 1 point. [y/N] ",
                                  n=state["game"]["index"] + 1)
        if self.read_line(prompt).strip().lower() not in command_words(self.words.language)["yes"]:
            self.claims_declined.add((state["seq"], claim_at))
            return state
        self.send({"type": "claim", "seq": state["seq"]})
        after = self.reply(state)
        if after is state:  # refused, and said why
            self.claim_retry = time.monotonic() + CLAIM_RETRY
        return after

    def tell(self, state: Message) -> None:
        """Say what happened since the last state: games ended, the game begun, moves made, and
        the end of the game on the board if the match ended with it."""
        game = state["game"]
        index = game["index"]
        self.tell_results(state, before=index)
        if index not in self.told:
            self.told[index] = 0
            self.console.print()
            name = self.words.game(game["variant"])
            self.console.rule(self.words("Game {n}: {name}", "bold", n=index + 1, name=name))
        waiting = state["players"]["black" if self.me == WHITE else "white"]
        if not waiting["connected"] and waiting["kind"] != "bot" and not self.waiting_said:
            self.waiting_said = True
            self.say("Waiting for your opponent to come to the board." if self.by_account else
                     "Waiting for your opponent to join with the link you sent.", NOTE_STYLE)
        for move in game["moves"][self.told[index]:]:
            color = COLORS[move["color"]]
            dice = Dice(*move["dice"])
            if move["play"]:
                self.say("{side} rolls {dice} and plays {play}." if color != self.me else
                         "{side} rolled {dice} and plays {play}.", side=self.side(state, color), dice=dice,
                         play=(move["play"], "bold"))
            else:
                self.say("{side} rolls {dice}: no legal play, the turn passes." if color != self.me else
                         "{side} rolled {dice}: no legal play, the turn passes.", side=self.side(state, color),
                         dice=dice)
        self.told[index] = len(game["moves"])
        self.tell_results(state, before=index + 1)

    def tell_results(self, state: Message, before: int) -> None:
        """Say how each game before number ``before`` ended, once."""
        for game in state["games"]:
            result = game.get("result")
            if result is not None and game["index"] < before and game["index"] not in self.ended:
                self.ended.add(game["index"])
                self.tell_result(state, game["index"], game["variant"], result)

    def tell_result(self, state: Message, index: int, variant: str, result: Message) -> None:
        ended = GameResult(COLORS.get(result["winner"] or ""), int(result["points"]), str(result["reason"]))
        winner = None if ended.winner is None else self.side(state, ended.winner)
        self.console.print(result_words(self.words, index + 1, variant, ended, winner))
        self.say("Score: {score}", score=self.score_text(state))

    def answer_offer(self, state: Message, offer: Message) -> Message:
        points = int(offer["points"])
        self.console.print(offer_words(self.words, self.side(state, COLORS[offer["from"]]), points))
        answer = self.read_line(accept_prompt(self.words, self.words.color(self.me), points))
        accept = answer.strip().lower() in command_words(self.words.language)["yes"]
        self.send({"type": "answer", "seq": state["seq"], "accept": accept})
        return self.reply(state)

    def take_turn(self, state: Message) -> Message:
        """Show the board and read the player's play or command; the state that follows."""
        position = game_position(state["game"], COLORS[state["turn"]])
        dice = Dice(*state["dice"])
        legal = position.legal_plays(dice)
        self.show(state, position, dice)
        if len(legal) > 1:
            self.console.print(numbered_plays(legal))
            self.say("Type a move like {play}, or its number; help for help.", NOTE_STYLE, play=legal[0])
        elif len(legal) == 1:
            self.say("Only one legal play: {play} (Enter plays it).", NOTE_STYLE, play=(str(legal[0]), "bold"))
        prompt = self.words.plain("{side} to play {dice} › ", side=self.words.color(self.me), dice=dice)
        while True:
            line = self.read_line(prompt)
            answer = self.read(state, legal, line)
            if isinstance(answer, Play):
                self.send({"type": "play", "seq": state["seq"], "play": str(answer)})
                answer = self.reply(state)
            if answer is not None and answer["seq"] != state["seq"]:  # played, or a resignation answered
                return answer

    def show(self, state: Message, position: Position, dice: Dice | None) -> None:
        self.console.print()
        self.console.print(header_words(self.words, state["settings"]["games"], state["game"]["index"] + 1,
                                        state["game"]["variant"], self.score_text(state)))
        names = {color: self.side(state, color).plain[2:] for color in (WHITE, BLACK)}
        self.console.print(board(position, bottom=self.me, dice=dice, names=names, language=self.words.language))
        clocks = clock_text(self.words, state.get("clock"))
        if clocks is not None:
            self.console.print(clocks)

    def read(self, state: Message, legal: LegalPlays, line: str) -> Play | Message | None:
        """A play, the state after a resignation sent, or None after a command or a refusal."""
        actions: dict[str, Callable[[list[str]], Message | None]] = {
            "list": lambda _: self.console.print(numbered_plays(legal)),
            "board": lambda _: self.show(state, legal.position, legal.dice),
            "position": lambda _: self.say("Position: {position}", NOTE_STYLE, position=(str(legal.position), "bold")),
            "hint": lambda _: self.hint(),
            "resign": lambda args: self.resign(state, args),
            "abort": lambda _: self.abort(state),
        }
        return answer_prompt(line, legal, self.words, self.console, self.read_line, actions)

    def hint(self) -> None:
        """The coach's best plays (a match with its coach on): as ``tavli play``'s hint shows them."""
        self.send({"type": "hint"})
        while True:
            message = self.receive(None)
            if message.get("type") == "hint":
                break
            if message.get("type") == "error":
                said = reason_words(message.get("reason"), self.words.language) or str(message.get("message"))
                self.say("✗ {why}", ERROR_STYLE, why=said)
                return
            if message.get("type") == "state":
                self.held.append(message)  # for reply(), once the hint is shown
        plays = [(str(p["play"]), float(p.get("mwc") or 0.0), float(p["equity"])) for p in message.get("plays") or []]
        for line in hint_lines(self.words, plays):
            self.console.print(line)

    def abort(self, state: Message) -> Message | None:
        """Call the match off, after a yes: the state after it, or None (not asked, or refused:
        the server says why, once both sides have played)."""
        said = self.read_line(self.words.plain("Abort the match? No result, nothing rated. [y/N] "))
        if said.strip().lower() not in command_words(self.words.language)["yes"]:
            return None
        self.send({"type": "abort", "seq": state["seq"]})
        after = self.reply(state)
        return None if after is state else after

    def resign(self, state: Message, what: list[str]) -> Message | None:
        points = resignation(what, self.words, self.console)
        if points is None:
            return None
        if points == "match":
            yes = command_words(self.words.language)["yes"]
            if self.read_line(self.words.plain("Resign the match? [y/N] ")).strip().lower() in yes:
                self.send({"type": "resign", "seq": state["seq"], "match": True})
                return self.reply(state)
            return None
        self.console.print(offer_words(self.words, self.side(state, self.me), points))
        self.send({"type": "resign", "seq": state["seq"], "points": points})
        after = self.reply(state)
        while after.get("offer") and COLORS[after["offer"]["from"]] == self.me:  # the opponent is answering
            after = self.reply(after)
        if len(after["games"]) == len(state["games"]) and after["score"] == state["score"]:
            self.say("{side} declines: play on.", side=self.side(after, self.me.other))
        else:
            self.say("{side} accepts.", side=self.side(after, self.me.other))
        return after


def join(link: str, *, console: Console | None = None, read_line: Callable[[str], str] | None = None,
         language: str = "en", new: Message | None = None, name: str | None = None,
         login: tuple[str, str] | None = None, seek: Message | None = None) -> Color | None:
    """Play the seat of ``link`` at the terminal; return the winner, or None if the player left
    or the match was aborted.
    ``seek``: with a server's address, play now in its lobby with that request (``seek_match``).
    ``link`` may be a server's address: then a new match made by ``new`` (``new_match``), or
    else a seat of one of its open matches. ``login``: the account's name and password, to play
    as that player (rated matches need it). RemoteError (one line) for a link or server that
    does not lead to a match, or a refused login."""
    server = server_address(link) or origin_of(link)
    cookie = log_in(server, *login) if login is not None and server is not None else None
    try:
        return _join(link, console=console, read_line=read_line, language=language, new=new, name=name,
                     cookie=cookie, seek=seek)
    finally:
        if cookie is not None and server is not None:  # the terminal keeps no session
            log_out(server, cookie)


def origin_of(link: str) -> str | None:
    """``scheme://host[:port]`` of a match's link.

    >>> origin_of("http://h:8000/match/abc#t=x")
    'http://h:8000'
    """
    parts = urllib.parse.urlsplit(link.strip())
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else None


def _join(link: str, *, console: Console | None, read_line: Callable[[str], str] | None, language: str,
          new: Message | None, name: str | None, cookie: str | None, seek: Message | None = None) -> Color | None:
    from websockets.exceptions import WebSocketException

    console = console or Console(highlight=False)
    read_line = read_line or console_reader(console)
    server = server_address(link)
    if server is None and new is not None:
        raise RemoteError("a new match is made on a server's address (http://HOST:PORT), not on {link!r}", link=link)
    if server is None and seek is not None:
        raise RemoteError("a seek is made on a server's address (http://HOST:PORT), not on {link!r}", link=link)
    if server is not None and seek is not None:
        link = seek_match(server, seek | ({"name": name} if name else {}), console, read_line, Words(language), cookie)
    elif server is not None and new is not None:
        link = new_match(server, new | ({"name": name} if name else {}), console, Words(language), cookie)
    elif server is not None:  # a server's address: one of its open matches
        try:
            chosen = choose_open_match(server, console, read_line, Words(language), name, cookie)
        except EOFError:
            chosen = None
        if chosen is None:
            return None
        link = chosen
    where = Link.parse(link)
    socket = open_socket(where.socket, cookie)
    session = RemoteMatch(lambda m: socket.send(json.dumps(m)), lambda wait: json.loads(socket.recv(wait)), console,
                          read_line, Words(language))
    try:
        with socket:
            return session.run(where.token, name)
    except (LeaveMatch, EOFError):  # the match stays on the server
        console.print()
        session.say("You left the match: it waits on the server, and the same link brings you back.")
        return None
    except WebSocketException as e:
        raise RemoteError("the server closed the match's connection: {why}", why=str(e) or type(e).__name__) from None


def open_socket(url: str, cookie: str | None = None) -> Any:
    """A WebSocket connection to ``url`` (with the session ``cookie``, if logged in); RemoteError
    in one line when it cannot be opened."""
    from websockets.exceptions import InvalidHandshake, InvalidURI
    from websockets.sync.client import connect

    try:
        return connect(url, open_timeout=30, additional_headers={"Cookie": cookie} if cookie else None)
    except (OSError, InvalidURI, InvalidHandshake, TimeoutError) as e:
        raise RemoteError("cannot reach {socket}: {why}", socket=url, why=str(e) or type(e).__name__) from None


# -- tournaments: tavli join SERVER --tournament ID ---------------------------------------------

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A tournament's id, as the server's addresses carry it."""
OVER = ("finished", "cancelled")
"""The statuses of a tournament with nothing left to play."""
KNOCKOUT_STAGES = {"knockout": ("main", "consolation"), "round-robin": ("knockout",)}
"""Each format's stages in which a lost match puts a player out (docs/tournaments.md)."""
STANDINGS_SHOWN = 10
"""The top places of the standings shown; the player's own is shown too, wherever it is."""


def fetch_tournament(server: str, tournament: str, words: Words) -> Message:
    """The tournament as ``GET /api/tournaments/ID`` shows it; RemoteError, in one line, for an id
    the server does not know, or a server that answers as no Tavli server does."""
    if not TOURNAMENT_ID.fullmatch(tournament):
        raise refusal(words.plain("not a tournament's id: {id}", id=repr(tournament)))
    status, found = _request(f"{server}/api/tournaments/{tournament}")
    if status == 200 and is_tournament(found):
        return dict(found)
    if status == 404 and isinstance(found, dict) and "error" in found:
        raise refusal(words.plain("{server} has no tournament {id}", server=server, id=tournament))
    raise refusal(words.plain("{server} did not show tournament {id}: is it a Tavli server?", server=server,
                              id=tournament))


def is_tournament(found: Any) -> bool:
    """Whether an answer is a tournament as the server shows one (docs/tournaments.md, "The API")."""
    return isinstance(found, dict) and isinstance(found.get("status"), str) and isinstance(found.get("players"), list) \
        and isinstance(found.get("rounds"), list)


def account_name(server: str, cookie: str) -> str:
    """The name of the account logged in with ``cookie`` (``GET /api/session``), as the tournament
    names its players."""
    status, found = _request(f"{server}/api/session", cookie=cookie)
    name = found.get("name") if status == 200 and isinstance(found, dict) else None
    if not isinstance(name, str):
        raise RemoteError("{server} did not say who is logged in", server=server)
    return name


def enter_tournament(server: str, tournament: str, cookie: str, words: Words) -> Message:
    """Join the tournament (``POST /api/tournaments/ID/join``): the tournament with the player in
    it; RemoteError, in the server's one line, for a refusal (full, begun, over)."""
    status, found = _request(f"{server}/api/tournaments/{tournament}/join", "POST", {}, cookie)
    if status == 200 and is_tournament(found):
        return dict(found)
    said = (reason_words(found.get("reason"), words.language) if found.get("reason") else
            str(found.get("error") or "")) if isinstance(found, dict) else ""
    raise refusal(words.plain("{server} did not let you join the tournament: {why}", server=server,
                              why=said or f"HTTP {status}"))


def plays_in(pairing: Mapping[str, Any], name: str) -> bool:
    return name in (pairing.get("white"), pairing.get("black"))


def pairings_of(view: Mapping[str, Any], name: str) -> list[tuple[Message, Message]]:
    """Each round of ``view`` in which ``name`` plays, with his pairing in it, in the rounds' order."""
    return [(r, p) for r in view.get("rounds") or [] for p in r.get("pairings") or [] if plays_in(p, name)]


def decided(pairing: Mapping[str, Any]) -> bool:
    """Whether a pairing's match is over (or was never played: a bye, a forfeit)."""
    return pairing.get("winner") is not None or pairing.get("ending") is not None


def next_pairing(view: Mapping[str, Any], name: str, played: Collection[str] = ()) -> tuple[Message, Message] | None:
    """The round and pairing ``name`` is to play now: its match made and not over (nor among the
    matches he has ``played``, whose end the tournament may not show yet); None when he has none.

    >>> round_1 = {"number": 1, "stage": "main", "pairings": [
    ...     {"white": "ann", "black": "bob", "match": "m1", "winner": None, "ending": None}]}
    >>> next_pairing({"rounds": [round_1]}, "bob")[1]["match"], next_pairing({"rounds": [round_1]}, "bob", {"m1"})
    ('m1', None)
    """
    for round_, pairing in pairings_of(view, name):
        match = pairing.get("match")
        if match and not decided(pairing) and match not in played:
            return round_, pairing
    return None


def is_final(view: Mapping[str, Any], round_: Mapping[str, Any]) -> bool:
    """Whether ``round_`` is the final of its bracket: a knockout round of one match."""
    pairings = round_.get("pairings") or []
    return round_.get("stage") in KNOCKOUT_STAGES.get(str(view.get("format")), ()) and len(pairings) == 1 \
        and pairings[0].get("black") is not None


def goes_to_consolation(view: Mapping[str, Any], round_: Mapping[str, Any]) -> bool:
    """Whether a loss in ``round_`` leaves a player the consolation bracket: its knockout has one,
    and the round is the main bracket's first (and not already its final)."""
    main = [r.get("number") for r in view.get("rounds") or [] if r.get("stage") == "main"]
    return bool(view.get("consolation")) and round_.get("stage") == "main" and round_.get("number") == min(main) \
        and not is_final(view, round_)


def matches_over(view: Mapping[str, Any], name: str) -> bool:
    """Whether ``name`` has nothing left to play, the tournament not over yet: he won the final of
    his bracket (a consolation bracket plays on), or his Swiss's last round is over for him."""
    mine = pairings_of(view, name)
    last = view.get("rounds_planned") if view.get("format") == "swiss" else None
    return any(is_final(view, r) and p.get("winner") == name for r, p in mine) or \
        (isinstance(last, int) and any(r.get("number") == last and decided(p) for r, p in mine))


def knocked_out(view: Mapping[str, Any], name: str) -> bool:
    """Whether ``name`` is out of the tournament before its end: withdrawn or removed; or he lost
    a knockout match (but a first-round loss with a consolation bracket, played on there); or a
    knockout round was paired without him after a match neither player came to (the higher seed
    went on); or, after round-robin groups, the knockout began without him."""
    if any(p.get("name") == name and p.get("withdrawn") for p in view.get("players") or []):
        return True
    stages = KNOCKOUT_STAGES.get(str(view.get("format")), ())
    rounds = [r for r in view.get("rounds") or [] if r.get("stage") in stages]
    if view.get("format") == "round-robin" and rounds and not any(plays_in(p, name) for p in rounds[0]["pairings"]):
        return True
    for round_, pairing in pairings_of({"rounds": rounds}, name):
        winner = pairing.get("winner")
        if not decided(pairing) or winner == name:
            continue
        if winner is None:  # nobody came: out once the stage's next round is paired without him
            later = [r for r in rounds if r.get("stage") == round_.get("stage") and r["number"] > round_["number"]]
            if later and not any(plays_in(p, name) for p in later[0]["pairings"]):
                return True
        elif not goes_to_consolation(view, round_):
            return True
    return False


def standing_rows(view: Mapping[str, Any], name: str) -> list[Message]:
    """The standings' rows ``name`` stands among, each with its place: all of them, or those of
    his round-robin group, placed within it."""
    rows = [dict(row) for row in view.get("standings") or []]
    group = next((row.get("group") for row in rows if row.get("name") == name), None)
    if group is None:
        return [row | {"place": row.get("place") or n} for n, row in enumerate(rows, 1)]
    return [row | {"place": n} for n, row in enumerate((row for row in rows if row.get("group") == group), 1)]


def latest_round(view: Mapping[str, Any], round_: Mapping[str, Any]) -> Mapping[str, Any]:
    """The last round of ``round_``'s stage that ``view`` shows."""
    return max((r for r in view.get("rounds") or [] if r.get("stage") == round_.get("stage")),
               key=lambda r: int(r.get("number") or 0), default=round_)


def place_of(view: Mapping[str, Any], name: str) -> tuple[int, int] | None:
    """``name``'s place in the standings, and how many stand there (his group's, in one); None
    where he has none."""
    rows = standing_rows(view, name)
    return next(((int(row["place"]), len(rows)) for row in rows if row.get("name") == name), None)


def round_words(words: Words, view: Mapping[str, Any], round_: Mapping[str, Any]) -> str:
    """``Round 2``, ``Consolation · round 1``, ``Group B · round 3``, ``Knockout · round 1`` (after the
    groups), or an arena's ``Pairings 4``, as the tournament's page says them; a bracket's last round
    is its ``Final``."""
    stage, n = str(round_.get("stage") or "main"), round_.get("number")
    if is_final(view, round_):
        return words.plain("Consolation · final") if stage == "consolation" else words.plain("Final")
    if stage == "consolation":
        return words.plain("Consolation · round {n}", n=n)
    if stage.startswith("group-"):
        return words.plain("Group {group} · round {n}", group=stage.removeprefix("group-"), n=n)
    if stage == "knockout":
        return words.plain("Knockout · round {n}", n=n)
    return words.plain("Pairings {n}", n=n) if view.get("format") == "arena" else words.plain("Round {n}", n=n)


def format_words(words: Words, view: Mapping[str, Any]) -> str:
    """The tournament's format, in the language."""
    kind = str(view.get("format"))
    return (words.plain("Knockout") if kind == "knockout" else words.plain("Swiss") if kind == "swiss" else
            words.plain("Round-robin") if kind == "round-robin" else words.plain("Arena") if kind == "arena" else
            kind)


def local_time(text: Any) -> str:
    """An ISO time the server gave, as the player's clock reads it (``2026-12-07 21:00``).

    >>> local_time("not a time")
    'not a time'
    """
    try:
        return datetime.datetime.fromisoformat(str(text)).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return str(text)


def tournament_lines(words: Words, view: Mapping[str, Any]) -> list[Text]:
    """The tournament as it is shown on coming: its name, its format and matches, where it stands,
    and its players."""
    games = [str(g) for g in view.get("games") or []]
    title = words.plain("Tavli") if tuple(games) == TAVLI_SEQUENCE else ", ".join(words.game(g) for g in games)
    length = view.get("length")
    lines = [words("Tournament “{name}” ({id})", "bold", name=str(view.get("name")), id=str(view.get("id"))),
             words("{format} · matches to {length} point · {games}" if length == 1 else
                   "{format} · matches to {length} points · {games}", format=format_words(words, view),
                   length=length, games=title)]
    players = [str(p.get("name")) for p in view.get("players") or [] if not p.get("withdrawn")]
    count, most = len(players), view.get("max_players")
    if view.get("status") == "open" and view.get("starts_at"):
        lines.append(words("Open: {count} of {most} players so far; it begins at {time}.", count=count, most=most,
                           time=local_time(view["starts_at"])))
    elif view.get("status") == "open":
        lines.append(words("Open: {count} of {most} players so far; it begins when {most} have joined.",
                           count=count, most=most))
    elif view.get("status") == "running":
        lines.append(words("Under way: {count} players, round {round}.", count=count,
                           round=max([int(r.get("number") or 0) for r in view.get("rounds") or []], default=1)))
    lines.append(words("Players: {names}", names=", ".join(players)) if players else words("No players yet."))
    return lines


def standings_lines(words: Words, view: Mapping[str, Any], name: str) -> list[Text]:
    """The standings (his group's, in one), a line a player (``  2. ann · 4 points``; a knockout's,
    ranked by the round reached, without points): the top ``STANDINGS_SHOWN`` and ``name``'s own,
    marked, with ``…`` for the places left out."""
    lines: list[Text] = []
    left_out = False
    for n, row in enumerate(standing_rows(view, name), 1):
        mine = row.get("name") == name
        if n > STANDINGS_SHOWN and not mine:
            left_out = True
            continue
        if left_out:
            lines.append(Text("  …"))
            left_out = False
        who = words.plain("{name} (you)", name=str(row.get("name"))) if mine else str(row.get("name"))
        points, place, style = row.get("points") or 0, row["place"], "bold" if mine else ""
        lines.append(words("  {place}. {name}", style, place=place, name=who) if view.get("format") == "knockout" else
                     words("  {place}. {name} · {points} point" if points == 1 else
                           "  {place}. {name} · {points} points", style, place=place, name=who,
                           points=words.number(float(points), "g")))
    if left_out:
        lines.append(Text("  …"))
    return lines


@dataclass
class RemoteTournament:
    """A player's part in a tournament on a server, followed at the terminal: each of his
    matches played as it is paired (``RemoteMatch``, his seat taken by his session), the
    rounds' news said, until the tournament is over or he is out of it."""

    server: str
    tournament: str
    cookie: str
    name: str
    """The player, as the tournament names him: his account's name."""
    console: Console
    read_line: Callable[[str], str]
    words: Words = field(default_factory=Words)
    played: set[str] = field(default_factory=set)
    """The matches played here."""
    told: set[str] = field(default_factory=set)
    """The pairings of his whose end has been said (by match, or by round for a bye)."""
    heard: bool = False
    """Whether a view of the tournament has come: the ends it shows on coming are not said."""
    standings_due: list[tuple[str, int]] = field(default_factory=list)
    """The rounds (stage and number) of his whose standings are to be shown once they are over."""
    waiting_said: bool = False

    def say(self, template: str, style: str = "", /, **params: object) -> None:
        self.console.print(self.words(template, style, **params))

    def run(self) -> int | None:
        """Play the player's matches as they come, until the tournament is over for him; say the
        final standings and return his place in them."""
        while True:
            with open_socket(self.socket_url(), self.cookie) as socket:  # closed while he plays
                view, pairing = self.follow(socket)
            if pairing is None:
                return self.finish(view)
            self.play(view, *pairing)

    def socket_url(self) -> str:
        return self.server.replace("http", "ws", 1) + f"/ws/tournament/{self.tournament}"

    def follow(self, socket: Any) -> tuple[Message, tuple[Message, Message] | None]:
        """The tournament's views until the player has a match to play (that view, and the round
        and pairing), or until it is over for him (the view, and None)."""
        from websockets.exceptions import WebSocketException

        while True:
            try:
                message = json.loads(socket.recv())
            except WebSocketException as e:
                raise refusal(self.words.plain("the server closed the tournament's connection: {why}",
                                               why=str(e) or type(e).__name__)) from None
            if message.get("type") != "tournament" or not is_tournament(message.get("tournament")):
                continue
            view = message["tournament"]
            self.tell(view)
            if view["status"] in OVER or knocked_out(view, self.name):
                return view, None
            found = next_pairing(view, self.name, self.played)
            if found is not None:
                return view, found
            ending = any(p.get("match") in self.played and not decided(p) for _, p in pairings_of(view, self.name))
            if not self.waiting_said and not ending:  # not while his last match's end is on its way
                self.waiting_said = True
                self.say("Waiting for the tournament to begin (Ctrl-C to leave: you stay in it)." if view["status"] ==
                         "open" else "Your matches are over: waiting for the tournament's last ones (Ctrl-C to leave)."
                         if matches_over(view, self.name) else
                         "Waiting for your next match (Ctrl-C to leave: you stay in the tournament).", NOTE_STYLE)

    def tell(self, view: Message) -> None:
        """Say the ends of the player's pairings since the last view: a bye; after a match played
        here, whether he goes on (a knockout), or once its round is over, the standings."""
        for round_, pairing in pairings_of(view, self.name):
            key = str(pairing.get("match") or f"{round_.get('stage')} {round_.get('number')}")
            if not decided(pairing) or key in self.told:
                continue
            self.told.add(key)
            bye = pairing.get("black") is None or pairing.get("white") is None
            if not self.heard and not (bye and round_ is latest_round(view, round_)):  # before he came
                continue
            if bye:
                self.say("{round}: you have a bye.", round=round_words(self.words, view, round_))
            if (bye or key in self.played) and view["status"] not in OVER and not knocked_out(view, self.name):
                self.tell_next(view, round_, pairing)
        self.heard = True
        self.tell_standings(view)

    def tell_next(self, view: Message, round_: Message, pairing: Message) -> None:
        """After a match of his (or a bye), the tournament going on: whether he goes on, in a
        knockout; else the standings are due once the round is over."""
        if round_.get("stage") not in KNOCKOUT_STAGES.get(str(view.get("format")), ()):
            self.standings_due.append((str(round_.get("stage")), int(round_.get("number") or 0)))
        elif pairing.get("black") is None:  # a bye, said already
            return
        elif pairing.get("winner") == self.name:
            self.say("You won the final." if is_final(view, round_) else "You go on to the next round.", "bold")
        elif goes_to_consolation(view, round_):
            self.say("You go on in the consolation bracket.", "bold")

    def tell_standings(self, view: Message) -> None:
        """The standings after each round of his that is over since the last view (they count the
        rounds over); an arena's after each match (they count every match)."""
        for stage, number in list(self.standings_due):
            round_: Mapping[str, Any] = next((r for r in view["rounds"] if (r.get("stage"), r.get("number")) ==
                                              (stage, number)), {"stage": stage, "number": number})
            if view.get("format") != "arena" and not all(decided(p) for p in round_.get("pairings") or []):
                continue
            self.standings_due.remove((stage, number))
            if view["status"] in OVER:  # the end says them
                continue
            self.say("Standings:" if view.get("format") == "arena" else "Standings · {round}:", "bold",
                     round=round_words(self.words, view, round_))
            for line in standings_lines(self.words, view, self.name):
                self.console.print(line)

    def play(self, view: Message, round_: Message, pairing: Message) -> None:
        """Play one match of the tournament: his seat taken by his session, as the page takes it."""
        from websockets.exceptions import WebSocketException

        opponent = pairing["black"] if pairing.get("white") == self.name else pairing["white"]
        self.console.print()
        self.say("{round}: you play {opponent}: {link}", "bold", round=round_words(self.words, view, round_),
                 opponent=str(opponent), link=f"{self.server}/match/{pairing['match']}")
        url = self.server.replace("http", "ws", 1) + f"/ws/{urllib.parse.quote(str(pairing['match']))}"
        socket = open_socket(url, self.cookie)
        session = RemoteMatch(lambda m: socket.send(json.dumps(m)), lambda wait: json.loads(socket.recv(wait)),
                              self.console, self.read_line, self.words)
        try:
            with socket:
                session.run(None)
        except WebSocketException as e:
            raise RemoteError("the server closed the match's connection: {why}",
                              why=str(e) or type(e).__name__) from None
        self.played.add(str(pairing["match"]))
        self.waiting_said = False

    def finish(self, view: Message) -> int | None:
        """Say how the tournament ended for the player, the standings and his place; return it."""
        self.console.print()
        status = view["status"]
        withdrawn = any(p.get("name") == self.name and p.get("withdrawn") for p in view.get("players") or [])
        if status == "cancelled":
            self.say("The tournament was cancelled.", "bold")
        elif status == "finished":
            self.say("The tournament is over.", "bold")
        elif withdrawn:
            self.say("You are no longer in the tournament.", "bold")
        else:
            self.say("You are out of the tournament.", "bold")
        if not view.get("rounds"):  # cancelled before its start: nobody stands anywhere
            return None
        lines = standings_lines(self.words, view, self.name)
        if lines:
            self.say("Final standings:" if status == "finished" else "Standings:", "bold")
            for line in lines:
                self.console.print(line)
        placed = place_of(view, self.name)
        if placed is not None and placed[0] == 1 and status == "finished":
            self.say("You won the tournament!", "bold")
        elif placed is not None and not withdrawn:
            self.say("Your place: {place} of {count}.", "bold", place=placed[0], count=placed[1])
        return None if placed is None else placed[0]


def join_tournament(link: str, tournament: str, login: tuple[str, str], *, console: Console | None = None,
                    read_line: Callable[[str], str] | None = None, language: str = "en") -> int | None:
    """Play the matches of ``tournament`` on the server at ``link`` (its address) as ``login``'s
    account (his name and password), one after another as the server pairs them, joining it
    first if he is not in it; return his place at the end (None where he has none, or left). The
    tournament goes on without the terminal: Ctrl-C leaves him in it, and the same command brings
    him back. RemoteError (one line) for an address that is no Tavli server's, an unknown id, a
    tournament over, a refused login or a refused join."""
    console = console or Console(highlight=False)
    read_line = read_line or console_reader(console)
    words = Words(language)
    server = server_address(link)
    if server is None:
        raise refusal(words.plain("a tournament is played on a server's address (http://HOST:PORT), not on {link}",
                                  link=repr(link)))
    view = fetch_tournament(server, tournament, words)
    if view["status"] in OVER:
        raise refusal(words.plain("the tournament “{name}” is over: nothing is left to play" if view["status"] ==
                                  "finished" else "the tournament “{name}” was cancelled", name=str(view.get("name"))))
    cookie = log_in(server, *login)
    try:
        name = account_name(server, cookie)
        joined = any(p.get("name") == name and not p.get("withdrawn") for p in view["players"])
        if not joined:  # shown as it stands with him in it
            view = enter_tournament(server, tournament, cookie, words)
        for line in tournament_lines(words, view):
            console.print(line, soft_wrap=True)
        console.print(words("You are in the tournament as {name}.", name=name) if joined else
                      words("You joined the tournament as {name}.", "bold", name=name))
        following = RemoteTournament(server, tournament, cookie, name, console, read_line, words)
        try:
            return following.run()
        except (LeaveMatch, EOFError):  # the match stays on the server, and so does he in the tournament
            console.print()
            console.print(words("You left the match: it waits on the server, and the same command brings you back."))
            return None
        except KeyboardInterrupt:
            console.print()
            console.print(words("You left: you stay in the tournament, and the same command brings you back."))
            raise
    finally:
        log_out(server, cookie)
