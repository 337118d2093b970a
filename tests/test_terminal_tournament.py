"""``tavli join SERVER --tournament ID``: a player's matches of a tournament played at the terminal one
after another (``tavli.terminal.remote.RemoteTournament``)."""

from __future__ import annotations

import http.server
import io
import json
import signal
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import run_tavli, start_tavli
from rich.console import Console

from tavli.terminal.remote import (
    RemoteTournament,
    knocked_out,
    matches_over,
    next_pairing,
    place_of,
    round_words,
    standings_lines,
    tournament_lines,
)
from tavli.terminal.words import Words

if TYPE_CHECKING:
    from serve_process import Server

Message = dict[str, Any]
PASSWORD = "a long password"
SIT_AND_GO = {"format": "knockout", "start": "when-full", "max_players": 2, "length": 1, "games": "portes",
              "clock": "none"}
"""A knockout of two, begun as soon as both have joined: one match to 1 point, without a clock."""


def pairing(white: str, black: str | None, match: str | None = None, winner: str | None = None,
            ending: str | None = None) -> Message:
    return {"white": white, "black": black, "match": match, "winner": winner, "ending": ending,
            "why": {"rule": "seed"}}


def view(rounds: list[Message], form: str = "knockout", status: str = "running", **more: Any) -> Message:
    """A tournament as the server shows it (docs/tournaments.md, "The API"), with the fields these tests read."""
    names = sorted({name for r in rounds for p in r["pairings"] for name in (p["white"], p["black"]) if name})
    return {"id": "T1", "name": "Friday knockout", "format": form, "status": status, "length": 3,
            "games": ["portes", "plakoto", "fevga"], "max_players": 8, "start": "when-full", "starts_at": None,
            "consolation": False, "players": [{"name": n, "rating": 1500.0, "withdrawn": False, "paused": False}
                                              for n in names],
            "rounds": rounds, "standings": [], **more}


def main_round(number: int, *pairings: Message, stage: str = "main") -> Message:
    return {"number": number, "stage": stage, "pairings": list(pairings)}


# -- his next pairing -------------------------------------------------------------------------------


def test_his_next_pairing_is_the_first_match_made_and_not_over() -> None:
    first = main_round(1, pairing("ann", "bob", "m1", "ann", "played"), pairing("cy", "dora", "m2", "dora", "resigned"))
    second = main_round(2, pairing("ann", "dora", "m3"))
    shown = view([first, second])
    assert next_pairing(shown, "dora") == (second, second["pairings"][0])
    assert next_pairing(shown, "ann")[1]["match"] == "m3"  # type: ignore[index]
    assert next_pairing(shown, "bob") is None  # lost in round 1: nothing to play
    assert next_pairing(shown, "eve") is None  # not in it
    assert next_pairing(shown, "ann", played={"m3"}) is None  # played here: its end is on its way


def test_a_bye_a_forfeit_and_a_pairing_without_its_match_are_not_played() -> None:
    shown = view([main_round(1, pairing("ann", None, None, "ann", "bye"), pairing("bob", "cy", "m1", None, "forfeit"),
                             pairing("dora", "eve"))])
    assert [next_pairing(shown, name) for name in ("ann", "bob", "cy", "dora")] == [None] * 4
    late = view([main_round(1, pairing("dora", "eve", "m2", None, None))])
    assert next_pairing(late, "eve") == (late["rounds"][0], late["rounds"][0]["pairings"][0])


# -- out of a knockout ------------------------------------------------------------------------------


def test_a_knockout_loss_puts_him_out_but_a_first_round_loss_with_a_consolation_bracket() -> None:
    first = main_round(1, pairing("ann", "bob", "m1", "ann", "played"), pairing("cy", "dora", "m2", "dora", "time"))
    assert knocked_out(view([first]), "bob") and not knocked_out(view([first]), "ann")
    assert not knocked_out(view([first]), "dora") and not knocked_out(view([first]), "eve")
    assert not knocked_out(view([first], consolation=True), "bob")  # he plays on in the consolation bracket
    second = main_round(2, pairing("ann", "dora", "m3", "dora", "played"))
    assert knocked_out(view([first, second], consolation=True), "ann")  # a later loss is out
    consolation = main_round(1, pairing("bob", "cy", "m4", "cy", "resigned"), stage="consolation")
    assert knocked_out(view([first, consolation], consolation=True), "bob")
    assert not knocked_out(view([first, consolation], consolation=True), "cy")


def test_a_match_nobody_came_to_puts_out_whom_the_next_round_leaves_out() -> None:
    first = main_round(1, pairing("ann", "bob", "m1", None, "forfeit"), pairing("cy", "dora", "m2", "cy", "played"))
    assert not knocked_out(view([first]), "ann") and not knocked_out(view([first]), "bob")  # not known yet
    second = main_round(2, pairing("ann", "cy", "m3"))
    assert knocked_out(view([first, second]), "bob") and not knocked_out(view([first, second]), "ann")


def test_only_a_knockout_puts_a_player_out_and_a_withdrawn_player_is_out_of_any() -> None:
    lost = main_round(1, pairing("ann", "bob", "m1", "ann", "played"))
    assert not knocked_out(view([lost], "swiss"), "bob") and not knocked_out(view([lost], "arena"), "bob")
    shown = view([lost], "swiss")
    shown["players"][1]["withdrawn"] = True
    assert shown["players"][1]["name"] == "bob" and knocked_out(shown, "bob")


def test_after_round_robin_groups_the_knockout_begins_without_those_who_did_not_qualify() -> None:
    groups = [main_round(1, pairing("ann", "bob", "m1", "ann", "played"), stage="group-A"),
              main_round(1, pairing("cy", "dora", "m2", "dora", "played"), stage="group-B")]
    assert not any(knocked_out(view(groups, "round-robin"), name) for name in ("ann", "bob", "cy", "dora"))
    final = main_round(1, pairing("ann", "dora", "m3"), stage="knockout")
    shown = view([*groups, final], "round-robin")
    assert [knocked_out(shown, name) for name in ("ann", "bob", "cy", "dora")] == [False, True, True, False]
    shown["rounds"][-1]["pairings"][0].update(winner="dora", ending="played")
    assert knocked_out(shown, "ann") and not knocked_out(shown, "dora")


# -- the words ----------------------------------------------------------------------------------------


def standings(*rows: tuple[str, float]) -> list[Message]:
    return [{"name": name, "points": points, "place": n, "tiebreaks": {}} for n, (name, points) in enumerate(rows, 1)]


def test_the_standings_show_the_top_places_and_his_own() -> None:
    rows = standings(*[(f"p{n}", 20 - n) for n in range(1, 15)])
    shown = view([], "swiss", standings=rows)
    lines = [line.plain for line in standings_lines(Words(), shown, "p13")]
    assert lines[:2] == ["  1. p1 · 19 points", "  2. p2 · 18 points"]
    assert lines[9:] == ["  10. p10 · 10 points", "  …", "  13. p13 (you) · 7 points", "  …"]
    mine = standings_lines(Words(), shown, "p13")[11]
    assert mine.style == "bold"
    assert [line.plain for line in standings_lines(Words(), shown, "p2")][10:] == ["  …"]
    greek = standings_lines(Words("el"), view([], "swiss", standings=standings(("ann", 1.5), ("bob", 1))), "bob")
    assert [line.plain for line in greek] == ["  1. ann · 1,5 βαθμοί", "  2. bob (εσείς) · 1 βαθμός"]
    knockout = standings_lines(Words(), view([], standings=standings(("ann", 2), ("bob", 0))), "ann")
    assert [line.plain for line in knockout] == ["  1. ann (you)", "  2. bob"]  # ranked by the round reached
    assert standings_lines(Words(), view([]), "ann") == []
    assert place_of(shown, "p13") == (13, 14) and place_of(shown, "nobody") is None


def test_the_tournament_is_shown_with_its_format_matches_and_players() -> None:
    shown = view([], "swiss", "open", length=1, games=["plakoto"], starts_at=None)
    shown["players"] = [{"name": "ann", "withdrawn": False}, {"name": "bob", "withdrawn": True}]
    said = [line.plain for line in tournament_lines(Words(), shown)]
    assert said == ["Tournament “Friday knockout” (T1)", "Swiss · matches to 1 point · Plakoto",
                    "Open: 1 of 8 players so far; it begins when 8 have joined.", "Players: ann"]
    running = view([main_round(1, pairing("ann", "bob", "m1")), main_round(2, pairing("ann", "cy", "m2"))])
    greek = [line.plain for line in tournament_lines(Words("el"), running)]
    assert greek == ["Τουρνουά «Friday knockout» (T1)", "Αποκλεισμός · αγώνες στους 3 πόντους · Τάβλι",
                     "Σε εξέλιξη: 3 παίκτες, γύρος 2.", "Παίκτες: ann, bob, cy"]
    timed = view([], "arena", "open", starts_at="2026-12-07T20:00:00Z")
    timed["players"] = []
    assert [line.plain for line in tournament_lines(Words(), timed)][2:] == [
        f"Open: 0 of 8 players so far; it begins at {timed_local('2026-12-07T20:00:00Z')}.", "No players yet."]


def timed_local(text: str) -> str:
    import datetime

    return datetime.datetime.fromisoformat(text).astimezone().strftime("%Y-%m-%d %H:%M")


def test_each_stage_names_its_rounds_as_the_tournament_page_does() -> None:
    words, greek = Words(), Words("el")
    knockout, arena = view([]), view([], "arena")
    stages = ("main", "consolation", "group-B", "knockout")
    assert [round_words(words, knockout, main_round(2, stage=s)) for s in stages] == [
        "Round 2", "Consolation · round 2", "Group B · round 2", "Knockout · round 2"]
    assert round_words(words, arena, main_round(4)) == "Pairings 4"
    assert round_words(greek, knockout, main_round(1, stage="group-A")) == "Όμιλος A · γύρος 1"
    final = main_round(3, pairing("ann", "bob", "m7"))  # a bracket's round of one match
    assert round_words(words, knockout, final) == "Final" and round_words(words, arena, final) == "Pairings 3"
    assert round_words(greek, knockout, final | {"stage": "consolation"}) == "Παρηγοριά · τελικός"
    assert round_words(words, view([], "round-robin"), final | {"stage": "knockout"}) == "Final"
    assert round_words(words, knockout, main_round(3, pairing("ann", None, None, "ann", "bye"))) == "Round 3"


# -- what is said as the tournament goes on ---------------------------------------------------------


def following(name: str, language: str = "en") -> tuple[RemoteTournament, io.StringIO]:
    out = io.StringIO()
    return RemoteTournament("http://h:1", "T1", "tavli_session=x", name, Console(file=out, width=100),
                            lambda _: "", Words(language)), out


def test_the_ends_before_he_came_are_not_said_and_each_later_one_once() -> None:
    player, out = following("ann")
    first = main_round(1, pairing("ann", None, None, "ann", "bye"), pairing("bob", "cy", "m1", "cy", "played"))
    second = main_round(2, pairing("ann", "cy", "m2"), pairing("bob", "dora", "m3"))
    player.tell(view([first, second], "swiss"))
    assert out.getvalue() == ""  # the bye was before he came
    player.played.add("m2")
    player.tell(view([first, second], "swiss"))
    assert out.getvalue() == ""  # his match's end is not shown yet
    second["pairings"][0].update(winner="ann", ending="played")
    player.tell(view([first, second], "swiss"))
    assert out.getvalue() == ""  # the standings count the rounds over: they come once his is
    second["pairings"][1].update(winner="dora", ending="time")
    after = view([first, second], "swiss", standings=standings(("ann", 2), ("cy", 1), ("dora", 1), ("bob", 0)))
    player.tell(after)
    player.tell(after)
    assert out.getvalue().splitlines() == ["Standings · Round 2:", "  1. ann (you) · 2 points", "  2. cy · 1 point",
                                           "  3. dora · 1 point", "  4. bob · 0 points"]
    third = main_round(3, pairing("ann", None, None, "ann", "bye"), pairing("cy", "dora", "m4", "cy", "played"))
    player.tell(view([first, second, third], "swiss", standings=standings(("ann", 3))))
    assert out.getvalue().splitlines()[-3:] == ["Round 3: you have a bye.", "Standings · Round 3:",
                                                "  1. ann (you) · 3 points"]
    fourth = main_round(4, pairing("ann", "cy", "m5", "ann", "played"), pairing("bob", "dora", "m6", "bob", "played"))
    player.played.add("m5")
    player.tell(view([first, second, third, fourth], "swiss", "finished", standings=standings(("ann", 4))))
    assert out.getvalue().splitlines()[-1] == "  1. ann (you) · 3 points"  # over: the end says them, not this


def test_a_bye_of_the_round_he_comes_in_is_said_and_his_last_swiss_round_ends_his_matches() -> None:
    player, out = following("eve")
    first = main_round(1, pairing("ann", "bob", "m1"), pairing("eve", None, None, "eve", "bye"))
    shown = view([first], "swiss", rounds_planned=2)
    player.tell(shown)
    assert out.getvalue().splitlines() == ["Round 1: you have a bye."]  # the round he came in to
    assert not matches_over(shown, "eve")
    second = main_round(2, pairing("eve", "ann", "m2", "ann", "played"), pairing("bob", None, None, "bob", "bye"))
    assert matches_over(view([first, second], "swiss", rounds_planned=2), "eve")
    assert not matches_over(view([first, second], "swiss", rounds_planned=3), "eve")
    won = view([main_round(1, pairing("ann", "bob", "m1", "ann", "played"))], consolation=True)
    assert matches_over(won, "ann") and not matches_over(won, "bob")  # the final's winner waits for the end


def test_an_arenas_standings_come_after_each_match_and_a_groups_are_its_own() -> None:
    player, out = following("bob")
    wave = main_round(1, pairing("ann", "bob", "m1"), pairing("cy", "dora", "m2"))
    player.tell(view([wave], "arena"))
    player.played.add("m1")
    wave["pairings"][0].update(winner="bob", ending="played")
    player.tell(view([wave], "arena", standings=standings(("bob", 2), ("ann", 0), ("cy", 0), ("dora", 0))))
    assert out.getvalue().splitlines()[:2] == ["Standings:", "  1. bob (you) · 2 points"]
    rows = [{"name": n, "points": p, "place": k, "group": g} for k, (n, p, g) in
            enumerate([("ann", 1, "A"), ("bob", 0, "A"), ("cy", 1, "B"), ("dora", 0, "B")], 1)]
    grouped = view([], "round-robin", standings=rows)
    assert [line.plain for line in standings_lines(Words(), grouped, "dora")] == ["  1. cy · 1 point",
                                                                                   "  2. dora (you) · 0 points"]
    assert place_of(grouped, "dora") == (2, 2) and place_of(grouped, "ann") == (1, 2)


def test_after_a_knockout_match_he_hears_whether_he_goes_on() -> None:
    player, out = following("bob", "el")
    first = main_round(1, pairing("ann", "bob", "m1"), pairing("cy", "dora", "m2"))
    player.tell(view([first], consolation=True))
    player.played.add("m1")
    first["pairings"][0].update(winner="ann", ending="played")
    player.tell(view([first], consolation=True))
    assert out.getvalue().splitlines() == ["Συνεχίζετε στους αγώνες παρηγοριάς."]
    winner, said = following("ann")
    winner.tell(view([main_round(1, pairing("ann", "bob", "m1"))]))
    winner.played.add("m1")
    winner.tell(view([first]))
    final = main_round(2, pairing("ann", "cy", "m3", "ann", "played"))
    winner.played.add("m3")
    winner.tell(view([first, final], consolation=True))
    assert said.getvalue().splitlines() == ["You go on to the next round.", "You won the final."]
    two = view([main_round(1, pairing("ann", "bob", "m1", "ann", "played"))], consolation=True)
    assert knocked_out(two, "bob")  # a final lost in the first round leaves no consolation bracket


def test_the_end_says_the_standings_and_his_place() -> None:
    player, out = following("bob")
    done = view([main_round(1, pairing("ann", "bob", "m1", "ann", "played"))], status="finished",
                standings=standings(("ann", 1), ("bob", 0)))
    assert player.finish(done) == 2
    assert out.getvalue().splitlines() == ["", "The tournament is over.", "Final standings:", "  1. ann",
                                           "  2. bob (you)", "Your place: 2 of 2."]
    champion, said = following("ann", "el")
    assert champion.finish(done) == 1
    assert said.getvalue().splitlines()[-1] == "Κερδίσατε το τουρνουά!"
    out_early, told = following("bob")
    out_early.finish(done | {"status": "running"})
    assert told.getvalue().splitlines()[1:3] == ["You are out of the tournament.", "Standings:"]
    cancelled, cut = following("bob")
    assert cancelled.finish(done | {"status": "cancelled"}) == 2
    assert cut.getvalue().splitlines()[1:3] == ["The tournament was cancelled.", "Standings:"]
    before, never = following("bob")
    assert before.finish(done | {"status": "cancelled", "rounds": []}) is None  # nobody stands anywhere
    assert never.getvalue().splitlines() == ["", "The tournament was cancelled."]


# -- bad input ------------------------------------------------------------------------------------


def tavli_join(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_tavli("join", *args, stdin=stdin, env={"COLUMNS": "100", "TAVLI_PASSWORD": PASSWORD})


def start_join(*args: str, stdin: str) -> subprocess.Popen[str]:
    """``tavli join ARGS`` started, its input all given at once."""
    proc: subprocess.Popen[str] = start_tavli("join", *args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True,
                                              env={"COLUMNS": "100", "TAVLI_PASSWORD": PASSWORD})
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    return proc


def read_until(proc: subprocess.Popen[str], text: str) -> str:
    """``proc``'s output up to the line that holds ``text`` (all of it, should it end first)."""
    assert proc.stdout is not None
    seen = []
    for line in iter(proc.stdout.readline, ""):
        seen.append(line)
        if text in line:
            break
    return "".join(seen)


def ended(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """The rest of ``proc``'s output and its errors, once it has ended."""
    assert proc.stdout is not None and proc.stderr is not None
    rest = proc.stdout.read()  # to the end: the program ends with the tournament
    proc.wait(timeout=120)
    return rest, proc.stderr.read()


def tournament_of(server: Server, tournament: str) -> Message:
    with urllib.request.urlopen(f"{server.url}/api/tournaments/{tournament}", timeout=60) as answer:
        return dict(json.load(answer))


@pytest.mark.slow
def test_a_tournament_needs_an_account_and_goes_with_neither_new_nor_seek() -> None:
    alone = tavli_join("http://127.0.0.1:9", "--tournament", "T1")
    assert alone.returncode == 2 and alone.stderr.splitlines() == [
        "error: --tournament needs --user NAME: a tournament is played as your account"]
    greek = tavli_join("http://127.0.0.1:9", "--tournament", "T1", "--lang", "el")
    assert greek.returncode == 2 and "σε τουρνουά παίζετε με τον λογαριασμό σας" in greek.stderr
    both = tavli_join("http://127.0.0.1:9", "--tournament", "T1", "--user", "ann", "--seek", "3")
    assert both.returncode == 2 and both.stderr.splitlines() == ["error: --tournament does not go with --new or --seek"]


@pytest.fixture
def not_tavli(tmp_path: Path) -> Iterator[str]:
    """A web server that is no Tavli server: a folder of files, one page among them at a tournament's address."""
    (tmp_path / "api" / "tournaments").mkdir(parents=True)
    (tmp_path / "api" / "tournaments" / "page").write_text("<html><body>a page</body></html>")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_an_address_that_leads_to_no_tournament_is_one_line(not_tavli: str) -> None:
    for tournament in ("missing", "page"):  # an error page, and a page that is no tournament
        bad = tavli_join(not_tavli, "--user", "ann", "--tournament", tournament)
        assert bad.returncode == 2, bad.stdout
        assert bad.stderr.splitlines() == [
            f"error: {not_tavli} did not show tournament {tournament}: is it a Tavli server?"]
    odd = tavli_join(not_tavli, "--user", "ann", "--tournament", "../x")
    assert odd.returncode == 2 and odd.stderr.splitlines() == ["error: not a tournament's id: '../x'"]
    link = tavli_join(not_tavli + "/match/abc#t=x", "--user", "ann", "--tournament", "T1", "--lang", "el")
    assert link.returncode == 2 and "ένα τουρνουά παίζεται στη διεύθυνση ενός διακομιστή" in link.stderr
    closed = tavli_join("http://127.0.0.1:9", "--user", "ann", "--tournament", "T1")
    assert closed.returncode == 2 and closed.stderr.startswith("error: cannot reach http://127.0.0.1:9/api/tournaments/")
    assert len(closed.stderr.splitlines()) == 1 and "Traceback" not in closed.stderr


# -- on a real server -------------------------------------------------------------------------------


@pytest.mark.slow
def test_two_players_play_a_sit_and_go_from_their_terminals_to_its_end(shared_server: Server) -> None:
    ann = shared_server.sign_up("ann_tt", PASSWORD)
    shared_server.sign_up("bob_tt", PASSWORD)
    made = shared_server.post("/api/tournaments", SIT_AND_GO | {"name": "Sit & go"}, {"Cookie": ann})
    # Ann comes first, and resigns the match at her first turn; Bob plays his first legal play each turn
    first = start_join(shared_server.url, "--user", "ann_tt", "--tournament", made["id"], stdin="resign match\ny\n")
    waited = read_until(first, "Waiting for the tournament to begin")
    assert "Tournament “Sit & go”" in waited and "Open: 1 of 2 players so far" in waited, waited
    assert "You joined the tournament as ann_tt." in waited
    second = tavli_join(shared_server.url, "--user", "bob_tt", "--tournament", made["id"], "--lang", "el",
                        stdin="1\n" * 300)
    rest, errors = ended(first)
    assert first.returncode == 0 and second.returncode == 0, errors + second.stderr
    theirs, mine = " ".join(rest.split()), " ".join(second.stdout.split())
    assert f"Final: you play bob_tt: {shared_server.url}/match/" in theirs and "Joined the match" in theirs
    assert "Μπήκατε στο τουρνουά ως bob_tt." in mine and "Τελικός: παίζετε με αντίπαλο ann_tt" in mine
    assert "● Black (bob_tt) wins the match 1-0" in theirs or "○ White (bob_tt) wins the match 1-0" in theirs
    assert "The tournament is over. Final standings: 1. bob_tt 2. ann_tt (you) Your place: 2 of 2." in theirs
    assert "Τελική κατάταξη: 1. bob_tt (εσείς) 2. ann_tt Κερδίσατε το τουρνουά!" in mine
    assert "Traceback" not in errors + second.stderr
    shown = tournament_of(shared_server, made["id"])
    assert shown["status"] == "finished" and [p["winner"] for r in shown["rounds"] for p in r["pairings"]] == ["bob_tt"]
    over = tavli_join(shared_server.url, "--user", "ann_tt", "--tournament", made["id"])
    assert over.returncode == 2 and over.stderr.splitlines() == [
        "error: the tournament “Sit & go” is over: nothing is left to play"]


@pytest.mark.slow
def test_a_join_the_server_refuses_an_unknown_id_and_ctrl_c_are_one_line_each(shared_server: Server) -> None:
    cookies = {name: shared_server.sign_up(name, PASSWORD) for name in ("cy_tt", "dora_tt", "eve_tt")}
    begun = shared_server.post("/api/tournaments", SIT_AND_GO | {"name": "Begun"}, {"Cookie": cookies["cy_tt"]})
    for name in ("cy_tt", "dora_tt"):
        shared_server.post(f"/api/tournaments/{begun['id']}/join", {}, {"Cookie": cookies[name]})
    assert tournament_of(shared_server, begun["id"])["status"] == "running"
    late = tavli_join(shared_server.url, "--user", "eve_tt", "--tournament", begun["id"])
    assert late.returncode == 2 and late.stderr.splitlines() == [
        f"error: {shared_server.url} did not let you join the tournament: this tournament takes no more players: "
        "it has started or is over"]
    unknown = tavli_join(shared_server.url, "--user", "eve_tt", "--tournament", "NoSuchOne", "--lang", "el")
    assert unknown.returncode == 2 and unknown.stderr.splitlines() == [
        f"error: το {shared_server.url} δεν έχει τουρνουά NoSuchOne"]
    wrong = run_tavli("join", shared_server.url, "--user", "eve_tt", "--tournament", begun["id"],
                      env={"TAVLI_PASSWORD": "not her password"})
    assert wrong.returncode == 2 and "refused the login: wrong name or password" in wrong.stderr
    # Ctrl-C while waiting for the start: she leaves, and stays in the tournament
    opened = shared_server.post("/api/tournaments", SIT_AND_GO | {"name": "Open", "max_players": 4},
                                {"Cookie": cookies["cy_tt"]})
    waiting = start_join(shared_server.url, "--user", "eve_tt", "--tournament", opened["id"], stdin="")
    read_until(waiting, "Waiting for the tournament to begin")
    waiting.send_signal(signal.SIGINT)
    rest, errors = ended(waiting)
    assert waiting.returncode == 130 and "Traceback" not in errors, errors
    assert "You left: you stay in the tournament, and the same command brings you back." in rest
    assert [p["name"] for p in tournament_of(shared_server, opened["id"])["players"]] == ["eve_tt"]
    # She comes back, in it already; the organiser cancels it while she waits
    back = start_join(shared_server.url, "--user", "eve_tt", "--tournament", opened["id"], stdin="")
    assert "You are in the tournament as eve_tt." in read_until(back, "Waiting for the tournament to begin")
    shared_server.post(f"/api/tournaments/{opened['id']}/cancel", {}, {"Cookie": cookies["cy_tt"]})
    rest, errors = ended(back)
    assert back.returncode == 0 and rest.split() == ["The", "tournament", "was", "cancelled."], errors
    again = tavli_join(shared_server.url, "--user", "eve_tt", "--tournament", opened["id"])
    assert again.returncode == 2 and again.stderr.splitlines() == ["error: the tournament “Open” was cancelled"]
