"""``tavli join``: a seat of a match on a real ``tavli serve``, played at the terminal."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import threading
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import run_tavli, start_tavli
from rich.console import Console
from serve_process import resign_the_match

from tavli.formats.record import loads as read_record
from tavli.server.cafe.results import both_chose
from tavli.terminal.remote import CLAIM_RETRY, Link, RemoteError, RemoteMatch, game_position, reason_words
from tavli.variants import BLACK, WHITE

if TYPE_CHECKING:
    from serve_process import Server


def tavli_join(link: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_tavli("join", link, *args, stdin=stdin, env={"COLUMNS": "100"})


def record_of(server: Server, match: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/matches/{match}/record", timeout=60) as answer:
        return dict(json.load(answer))


def test_a_link_is_read_or_refused_in_one_line() -> None:
    link = Link.parse("https://tavli.example.org/match/abc_D-9#t=tok")
    assert link == Link("wss://tavli.example.org/ws/abc_D-9", "https://tavli.example.org/match/abc_D-9", "tok")
    for bad in ["", "tavli.example.org/match/abc#t=tok", "http://h/match/abc", "http://h/review#t=x",
                "ftp://h/match/abc#t=x", "http://h/match/a/b#t=x"]:
        with pytest.raises(RemoteError, match=r"^not a match link: "):
            Link.parse(bad)


def test_the_board_is_the_games_moves_played_again() -> None:
    game = {"rules": "plakoto", "moves": [{"color": "black", "dice": [6, 5], "play": "24/13"},
                                          {"color": "white", "dice": [3, 1], "play": "24/21 24/23"}]}
    position = game_position(game, WHITE)
    assert position.turn == BLACK and position.variant.name == "plakoto"
    assert game_position({"rules": "fevga", "moves": []}, BLACK).turn == BLACK


def test_a_reason_is_said_in_greek_with_its_values() -> None:
    reason = {"text": "line 2: bad", "template": "the board has {count} points, not 24", "params": {"count": 23}}
    assert reason_words(reason, "el") == "το ταμπλό έχει 23 σημεία, όχι 24"
    assert reason_words(reason, "en") == "line 2: bad"  # English is the text as sent
    assert reason_words({"text": "x", "template": "no such template", "params": {}}, "el") == "x"


@pytest.mark.slow
def test_a_match_against_a_bot_is_played_to_its_end(shared_server: Server) -> None:
    links = shared_server.post("/api/matches", {"opponent": "beginner", "length": 1, "games": "portes",
                                                "seat": "white"})
    run = tavli_join(shared_server.url + links["play"], stdin="hint\nlist\n99\n" + "1\n" * 400)
    assert run.returncode == 0, run.stderr
    out = " ".join(run.stdout.split())
    assert "Joined the match: White 0, Black 0 · match to 1." in out
    assert "✗ there is no play 99" in out and "Traceback" not in run.stdout + run.stderr
    assert "The expert bot's choice for the match at this score" in out and " 1. " in out  # the coach
    assert "○ White (you) rolled " in out and "● Black (beginner) rolls " in out
    record = record_of(shared_server, links["match"])
    end = record["games"][-1]["end"]
    winner = "White (you)" if end["winner"] == "white" else "Black (beginner)"
    assert f"{winner} wins the match {end['points']}-0 (match to 1 point)." in out
    plays = [t["play"] for t in record["games"][0]["turns"] if t["color"] == "white"]
    assert all(f"White (you) rolled {'-'.join(map(str, t['dice']))} and plays {t['play']}." in out
               for t in record["games"][0]["turns"] if t["color"] == "white" and t["play"]) and plays


@pytest.mark.slow
def test_a_resignation_is_offered_and_the_bot_takes_two_points(shared_server: Server) -> None:
    links = shared_server.post("/api/matches", {"opponent": "beginner", "length": 3, "games": "fevga",
                                                "seat": "black"})
    run = tavli_join(shared_server.url + links["play"], "--lang", "el", stdin="παραίτηση 2\nπαραίτηση αγώνα\nν\n")
    assert run.returncode == 0, run.stderr
    out = " ".join(run.stdout.split())
    assert "● Μαύρα (εσείς) προσφέρουν παραίτηση από το παιχνίδι με 2 πόντους." in out
    assert "○ Λευκά (αρχάριος) δέχονται." in out
    assert "κερδίζουν το παιχνίδι 1 (Φεύγα): 2 πόντοι, παραίτηση" in out
    assert "○ Λευκά (αρχάριος) κερδίζουν τον αγώνα 3-0 (αγώνας στους 3 πόντους)." in out
    ends = [g["end"] for g in record_of(shared_server, links["match"])["games"]]
    assert [(e["winner"], e["points"], e["reason"]) for e in ends] == [("white", 2, "resigned"),
                                                                       ("white", 1, "resigned the match")]


@pytest.mark.slow
def test_a_friend_joins_later_and_resigns_the_match(shared_server: Server) -> None:
    links = shared_server.post("/api/matches", {"opponent": "friend", "length": 1, "games": "portes",
                                                "seat": "white"})
    proc = start_tavli("join", shared_server.url + links["play"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env={"COLUMNS": "100"})
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdin.write("1\n" * 50)  # should White start before the friend comes: his first plays
    proc.stdin.close()
    seen: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        seen.extend(iter(proc.stdout.readline, ""))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while not any("Waiting for your opponent" in line for line in seen) and time.monotonic() < deadline:
        time.sleep(0.1)
    with shared_server.socket(links["match"]) as friend:
        friend.send(json.dumps({"type": "hello", "token": links["friend"].split("#t=")[1]}))
        state = json.loads(friend.recv(timeout=30))
        assert state["you"] == "black"
        # White's program may act between the friend's hello and his resignation, which then comes
        # stale: he resigns again at the newer state (as the page does) until the match is over
        while not state.get("over"):
            friend.send(json.dumps({"type": "resign", "seq": state["seq"], "match": True}))
            answer = json.loads(friend.recv(timeout=30))
            while answer.get("type") != "state":
                answer = json.loads(friend.recv(timeout=30))
            state = answer
        proc.wait(timeout=120)  # not communicate(): the reader thread has the output
    reader.join(timeout=30)
    out = " ".join("".join(seen).split())
    assert proc.returncode == 0
    assert "Waiting for your opponent to join with the link you sent." in out
    assert "○ White (you) wins the match 1-0 (match to 1 point)." in out


def test_a_claim_is_asked_once_for_each_absence_and_again_after_a_refusal() -> None:
    sent: list[dict[str, Any]] = []
    waits: list[float | None] = []
    incoming: list[dict[str, Any]] = []
    answers: list[str] = []
    prompts: list[str] = []

    def receive(wait: float | None) -> dict[str, Any]:
        waits.append(wait)
        if wait is not None:
            raise TimeoutError  # nothing comes while the opponent is away
        return incoming.pop(0)

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return answers.pop(0)

    session = RemoteMatch(sent.append, receive, Console(file=io.StringIO()), read_line)
    players = {"white": {"kind": "human", "name": None}, "black": {"kind": "human", "name": "Maria"}}
    assert session.side({"players": players}, BLACK).plain == "● Black (Maria)"  # the name the opponent gave
    assert session.side({"players": players | {"black": {"kind": "human"}}}, BLACK).plain == "● Black (friend)"
    away = {"type": "state", "seq": 5, "claim_at": time.time() - 1, "game": {"index": 1}, "over": False}
    answers.append("n")
    assert session.wait(away) is away and prompts == [
        "Your opponent is away. Claim game 2? It counts as won by 1 point. [y/N] "]
    back = away | {"seq": 6, "claim_at": None}
    incoming.append(back)
    assert session.wait(away) == back and len(prompts) == 1 and sent == []  # declined: not asked again
    answers.append("y")
    incoming.append({"type": "error", "code": "not-absent", "message": "You can claim only when the opponent is away."})
    assert session.wait(away | {"claim_at": time.time() + 0.5}) is not None  # a new absence: asked, and refused
    assert len(prompts) == 2 and sent == [{"type": "claim", "seq": 5}]
    assert 0.5 < waits[-2] <= 1.5  # CLAIM_MARGIN past claim_at
    answers.append("y")
    incoming.append(back)
    assert session.wait(away | {"claim_at": time.time() - 60}) == back
    assert waits[-2] == pytest.approx(CLAIM_RETRY, abs=0.5)  # after a refusal, not at once


@pytest.mark.slow
def test_an_absent_opponents_games_are_claimed(tmp_path: Path) -> None:
    from serve_process import Server

    server = Server(tmp_path / "tavli.db", claim_after=1.0)
    try:
        # an unclocked match: in a clocked one the absent player's clock runs instead
        links = server.post("/api/matches", {"opponent": "friend", "length": 2, "games": "portes", "seat": "white",
                                             "clock": "none"})
        # The friend comes once and goes (one who never came is awaited, not claimed against)
        with server.socket(links["match"]) as friend:
            friend.send(json.dumps({"type": "hello", "token": links["friend"].split("#t=")[1]}))
            assert json.loads(friend.recv(timeout=30))["type"] == "state"
        # Each game White plays his first roll if he starts (a "y" at the
        # play's prompt is refused first), and claims once it is the friend's turn.
        run = tavli_join(server.url + links["play"], stdin="y\n1\n" * 4)
        assert run.returncode == 0, run.stderr
        out = " ".join(run.stdout.split())
        assert "Your opponent is away. Claim game 1? It counts as won by 1 point. [y/N]" in out
        assert "Claim game 2?" in out and "○ White (you) wins the match 2-0 (match to 2 points)." in out
        ends = [g["end"] for g in record_of(server, links["match"])["games"]]
        assert [(e["winner"], e["points"], e["reason"]) for e in ends] == [
            ("white", 1, "claimed: the opponent was absent")] * 2
        assert "wins game 1 (Portes): 1 point, claimed: the opponent was absent." in out
    finally:
        server.stop(signal.SIGKILL)


def test_a_seat_taken_first_is_said_and_the_list_comes_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from tavli.terminal import remote
    from tavli.terminal.words import Words

    one = {"match": "abc", "seat": "black", "waiting": 75, "length": 5, "games": ["portes", "plakoto", "fevga"]}
    busy = {"error": "at most 30 new matches a minute: try again soon",
            "reason": {"text": "at most 30 new matches a minute: try again soon",
                       "template": "at most {count} new matches a minute: try again soon", "params": {"count": 30}}}
    answers = [(200, {"matches": [one]}), (409, {"error": "no open seat in that match"}),
               (200, {"matches": [one]}), (429, busy), (200, {"matches": []})]
    asked: list[tuple[str, str]] = []

    def request(url: str, method: str = "GET", body: object = None, cookie: str | None = None) -> tuple[int, Any]:
        asked.append((method, url))
        return answers.pop(0)

    monkeypatch.setattr(remote, "_request", request)
    out = io.StringIO()
    chosen = remote.choose_open_match("http://h:1", Console(file=out, width=200), lambda _: "1", Words())
    assert chosen is None and asked == [("GET", "http://h:1/api/open"), ("POST", "http://h:1/api/open/abc")] * 2 + [
        ("GET", "http://h:1/api/open")]
    said = out.getvalue()
    assert "1) Tavli · to 5 · you play Black · waiting 1 min" in said
    assert said.count("✗ someone took that seat first: choose another.") == 1
    assert "✗ at most 30 new matches a minute: try again soon" in said and "No match is waiting on http://h:1" in said
    assert remote.server_address("https://tavli.example.org") == "https://tavli.example.org"
    assert remote.server_address("ftp://h/") is None and remote.server_address("http://h/review") is None


@pytest.mark.slow
def test_an_open_match_is_chosen_from_the_servers_list(tmp_path: Path) -> None:
    from serve_process import Server

    server = Server(tmp_path / "tavli.db")
    try:
        none = tavli_join(server.url + "/")
        assert none.returncode == 0 and "No match is waiting on " in none.stdout
        links = [server.post("/api/matches", {"opponent": "anyone", "length": n, "games": "plakoto", "seat": "white",
                                              "name": "Eleni"}) for n in (3, 5)]
        seen: list[str] = []
        with server.socket(links[0]["match"]) as creator:  # the first one's creator waits at his board
            creator.send(json.dumps({"type": "hello", "token": links[0]["token"]}))

            def resign_when_joined() -> None:  # ... and resigns the match once someone has come
                while True:
                    state = json.loads(creator.recv(timeout=120))
                    if state.get("type") == "state" and state["players"]["black"]["connected"]:
                        seen.append(state["players"]["black"]["name"])
                        creator.send(json.dumps({"type": "resign", "seq": state["seq"], "match": True}))
                        return

            waiter = threading.Thread(target=resign_when_joined, daemon=True)
            waiter.start()
            chose = tavli_join(server.url, "--lang", "el", "--name", "Kostas", stdin="2\n")  # newest first
            waiter.join(timeout=30)
            assert chose.returncode == 0, chose.stderr
            out = " ".join(chose.stdout.split())
            assert "1) Πλακωτό · στους 5 · παίζετε με τα Μαύρα" in out and "2) Πλακωτό · στους 3" in out
            assert "· Eleni" in out and seen == ["Kostas"]  # each sees the other's name
            assert "Μπήκατε στον αγώνα" in out and "κερδίζουν τον αγώνα 3-0" in out
            taken = urllib.request.urlopen(server.url + "/api/open", timeout=30)
            assert [m["match"] for m in json.load(taken)["matches"]] == [links[1]["match"]]
            again = tavli_join(server.url)  # the other: nobody else will take it meanwhile
            refused = tavli_join(server.url, stdin="7\n")
            assert again.returncode == 0 and refused.returncode == 0 and "Joined" not in refused.stdout
    finally:
        server.stop(signal.SIGKILL)


@pytest.mark.slow
def test_a_new_match_is_made_from_the_terminal(shared_server: Server) -> None:
    bot = tavli_join(shared_server.url, "--new", "beginner", "--length", "1", "--games", "fevga", "--seat", "black",
                     stdin="1\n" * 400)
    assert bot.returncode == 0, bot.stderr
    out = " ".join(bot.stdout.split())
    assert "Spectators' link: http://127.0.0.1:" in out and "Send your friend" not in out
    assert "Joined the match: White 0, Black 0 · match to 1." in out and "wins the match" in out
    proc = start_tavli("join", shared_server.url, "--new", "friend", "--length", "2", "--mother-pin", "single",
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env={"COLUMNS": "100"})
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdin.write("1\n" * 50)
    proc.stdin.close()
    first = proc.stdout.readline()
    assert first.startswith("Send your friend this link: http://127.0.0.1:"), first
    link = Link.parse(first.split(": ", 1)[1])
    with shared_server.socket(link.socket.rsplit("/", 1)[1]) as friend:
        friend.send(json.dumps({"type": "hello", "token": link.token}))
        state = json.loads(friend.recv(timeout=30))
        assert state["settings"]["length"] == 2 and state["settings"]["mother_pin"] == "single"
        resign_the_match(friend, state)  # his joining starts the match: his first state may be behind
        rest = proc.stdout.read()  # to the end: the program ends with the match
        proc.wait(timeout=120)
    assert proc.returncode == 0 and "wins the match 2-0" in " ".join(rest.split())
    for args, said in ((("http://127.0.0.1:9/match/x#t=y", "--new", "friend"), "a new match is made on a server's"),
                       ((shared_server.url, "--new", "expert", "--games", "chess"), "made no match: ")):
        bad = tavli_join(*args)
        assert bad.returncode == 2 and said in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    named = tavli_join(shared_server.url, "--name", "x" * 30)
    assert named.returncode == 2 and "--name has at most 24 letters" in named.stderr


@pytest.mark.slow
def test_a_link_that_leads_nowhere_is_one_line(shared_server: Server) -> None:
    links = shared_server.post("/api/matches", {"opponent": "beginner", "length": 1, "seat": "white"})
    bad = tavli_join(shared_server.url + links["play"].split("#t=")[0] + "#t=not-the-token")
    assert bad.returncode == 2 and bad.stderr.strip().splitlines() == [
        "error: the server did not let this link join its match"]
    watch = tavli_join(shared_server.url + links["watch"])
    assert watch.returncode == 2 and "this link is a spectator's" in watch.stderr
    closed = tavli_join("http://127.0.0.1:9/match/abc#t=x")
    assert closed.returncode == 2 and closed.stderr.startswith("error: cannot reach ws://127.0.0.1:9/ws/abc: ")
    assert len(closed.stderr.strip().splitlines()) == 1
    nonsense = tavli_join("not a link")
    assert nonsense.returncode == 2 and "not a match link" in nonsense.stderr


def both_have_chosen(record: str) -> bool:
    """Whether each side of the match whose record is at ``record`` has made a play the dice did not force."""
    with urllib.request.urlopen(record, timeout=60) as answer:
        return both_chose(read_record(answer.read()).to_match())


@pytest.mark.slow
def test_a_player_logs_in_at_the_terminal_and_his_rated_match_counts(shared_server: Server) -> None:
    eleni = shared_server.sign_up("Eleni_t", "eleni's password")
    shared_server.sign_up("Nikos_t", "nikos's password")
    links = shared_server.post("/api/matches", {"opponent": "friend", "rated": True, "length": 1, "games": "portes"},
                               headers={"Cookie": eleni})
    friend = shared_server.url + links["friend"]
    record = f"{shared_server.url}/api/matches/{links['match']}/record"
    guest = tavli_join(friend, stdin="")
    assert guest.returncode == 2 and "this match is rated: log in to play it" in guest.stderr + guest.stdout
    wrong = run_tavli("join", friend, "--user", "Nikos_t", env={"TAVLI_PASSWORD": "not his password"})
    assert wrong.returncode == 2 and "refused the login: wrong name or password" in wrong.stderr
    proc = start_tavli("join", friend, "--user", "Nikos_t", stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True,
                       env={"TAVLI_PASSWORD": "nikos's password", "COLUMNS": "100"})
    assert proc.stdin is not None
    proc.stdin.write("1\n" * 50)  # his first plays, should he be the one to start
    proc.stdin.close()
    with shared_server.socket(links["match"], headers={"Cookie": eleni}) as mine:
        mine.send(json.dumps({"type": "hello", "token": links["token"]}))
        state: dict[str, Any] = {"players": {"black": {"joined": False}}}
        deadline = time.monotonic() + 120
        while not state["players"]["black"]["joined"] and time.monotonic() < deadline:
            state = next(m for m in iter(lambda: json.loads(mine.recv(timeout=30)), None) if m["type"] == "state")
        assert state["players"]["black"]["name"] == "Nikos_t"  # the account's name on the seat
        # Eleni plays until each side has chosen a play (else nothing is rated: docs/ratings.md),
        # then leaves the match: a loss, and her rating drops
        while not state.get("over"):
            if both_have_chosen(record):
                mine.send(json.dumps({"type": "resign", "seq": state["seq"], "match": True}))
            elif state["can_roll"]:
                mine.send(json.dumps({"type": "roll", "seq": state["seq"]}))
            elif state["can_play"]:
                mine.send(json.dumps({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]}))
            state = next(m for m in iter(lambda: json.loads(mine.recv(timeout=30)), None) if m["type"] == "state")
    assert proc.stdout is not None
    proc.wait(timeout=120)
    assert proc.returncode == 0 and "wins the match" in " ".join(proc.stdout.read().split())
    with urllib.request.urlopen(f"{shared_server.url}/api/players/Nikos_t", timeout=60) as answer:
        profile = json.load(answer)
    assert profile["matches"][0]["result"] == "won" and profile["ratings"]["portes"]["rating"] > 1500


@pytest.mark.slow
def test_the_operator_lists_resets_and_disables_accounts(tmp_path: Path) -> None:
    import asyncio

    from tavli.server.cafe.accounts import Accounts
    from tavli.server.storage.store import Store

    url = f"sqlite:///{tmp_path / 'tavli.db'}"

    async def make() -> None:
        store = Store(url)
        await store.create_tables()
        await Accounts(store.engine).create("Ελένη", "first password")
        await store.engine.dispose()
    asyncio.run(make())
    listed = run_tavli("users", "list", "--database", url)
    assert listed.returncode == 0 and listed.stdout.startswith("Ελένη\t")
    reset = run_tavli("users", "reset-password", "ελένη", "--database", url, env={"TAVLI_PASSWORD": "second one!"})
    assert reset.returncode == 0, reset.stderr
    short = run_tavli("users", "reset-password", "Ελένη", "--database", url, env={"TAVLI_PASSWORD": "short"})
    assert short.returncode == 2 and "a password has 8 to 200 characters" in short.stderr
    assert run_tavli("users", "disable", "Ελένη", "--database", url).returncode == 0
    assert "(disabled)" in run_tavli("users", "list", "--database", url).stdout
    missing = run_tavli("users", "disable", "Nobody", "--database", url)
    assert missing.returncode == 2 and "no account is named 'Nobody'" in missing.stderr

    async def check() -> tuple[bool, bool]:
        store = Store(url)
        accounts = Accounts(store.engine)
        try:
            await accounts.verify("Ελένη", "second one!", "test")
            disabled_refused = False
        except ValueError:
            disabled_refused = True
        await accounts.disable((await accounts.find("Ελένη")).id, False)  # type: ignore[union-attr]
        enabled = (await accounts.verify("Ελένη", "second one!", "test")).name == "Ελένη"
        await store.engine.dispose()
        return disabled_refused, enabled
    assert asyncio.run(check()) == (True, True)


@pytest.mark.slow
def test_a_seek_from_the_terminal_is_paired_and_played_with_its_clocks(shared_server: Server) -> None:
    proc = start_tavli("join", shared_server.url, "--seek", "1", "--games", "portes", "--clock", "relaxed",
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env={"COLUMNS": "100"})
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdin.write("1\n" * 100)
    proc.stdin.close()
    assert "Waiting in the lobby" in proc.stdout.readline()
    seeks: list[dict[str, Any]] = []
    for _ in range(100):  # the terminal's seek, listed in the lobby
        with urllib.request.urlopen(f"{shared_server.url}/api/seeks", timeout=30) as answer:
            seeks = [s for s in json.load(answer)["seeks"] if s["quick"]]
        if seeks:
            break
        time.sleep(0.1)
    assert seeks and seeks[0]["length"] == 1 and seeks[0]["clock"] == {"delay": 15.0, "reserve": 120.0}
    seat = shared_server.post(f"/api/seeks/{seeks[0]['id']}/accept", {}, {"Cookie": "tavli_guest=accepter"})
    assert "Paired: match" in proc.stdout.readline()
    with shared_server.socket(seat["match"]) as other:
        other.send(json.dumps({"type": "hello", "token": seat["token"]}))
        acted = -1
        for _ in range(300):  # play until the terminal has had a turn, then resign the match
            state = json.loads(other.recv(timeout=60))
            if state["type"] != "state" or state["over"] or not state["clock"]["started"] or state["seq"] == acted:
                continue
            if state["seq"] > 6 and state["turn"] == seat["seat"]:
                break
            if state["turn"] == seat["seat"] and (state["can_roll"] or state["can_play"]):
                acted = state["seq"]
                mine = {"type": "roll", "seq": state["seq"]} if state["can_roll"] else \
                    {"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][-1]}
                other.send(json.dumps(mine))
        other.send(json.dumps({"type": "resign", "seq": state["seq"], "match": True}))
        rest = proc.stdout.read()
        proc.wait(timeout=120)
    out = " ".join(rest.split())
    assert proc.returncode == 0 and "wins the match" in out
    assert "Clocks: ○ White" in out and "running" in out


@pytest.mark.slow
def test_a_match_is_aborted_from_the_terminal_before_both_have_played(shared_server: Server) -> None:
    links = shared_server.post("/api/matches", {"opponent": "beginner", "length": 3, "games": "portes"})
    run = tavli_join(shared_server.url + links["play"], "--lang", "el", stdin="ακύρωση\nν\n")
    assert run.returncode == 0, run.stderr
    out = " ".join(run.stdout.split())
    assert "Ο αγώνας ακυρώθηκε: χωρίς αποτέλεσμα." in out
    ends = [g["end"] for g in record_of(shared_server, links["match"])["games"]]
    assert ends == [{"winner": None, "points": 0, "reason": "aborted"}]


def test_abort_is_a_command_of_the_help_and_only_for_a_match_on_a_server() -> None:
    from tavli.dice import Dice
    from tavli.position import Position
    from tavli.terminal.prompt import HELP, answer_prompt
    from tavli.terminal.words import Words

    assert "abort" in HELP
    out = io.StringIO()
    plays = Position.start("portes").legal_plays(Dice(6, 5))
    assert answer_prompt("abort", plays, Words(), Console(file=out, width=100), lambda _: "", {}) is None
    assert "abort is for a match on a server (tavli join)" in out.getvalue()  # tavli play has no abort
