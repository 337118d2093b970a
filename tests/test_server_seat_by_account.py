"""A signed-in player's seat is his account's (docs/web.md, "Seats, tokens and links"): a hello
with no token, or with the spectators' token, from a session whose account plays a seat joins as
that seat, on any device; another account and a guest still watch (a private match stays private
to them), a seat no account holds is never taken by the address, and the rematch of a seat joined
so is the account's again, never a token anyone could work out. A player's page says which of
its matches the one asking plays (``yours``), for the pages' Resume."""

from __future__ import annotations

from app_client import Message, as_player, new_match, sign_up, token_of, until
from starlette.testclient import TestClient

from tavli.server.play.seats import rematch_token


def joined(client: TestClient, match_id: str, secret: str | None, token: str | None = None) -> Message:
    """What a page gets as it joins ``match_id`` with ``secret``'s session (None: a guest) and
    ``token`` (None: none): the first state or the refusal, with ``by`` the server's word on how it
    joined (``joined``'s, or None)."""
    with as_player(client, secret), client.websocket_connect(f"/ws/{match_id}") as ws:
        ws.send_json({"type": "hello"} | ({"token": token} if token else {}))
        said = until(ws, lambda m: m["type"] in ("joined", "state", "error"))
        first = until(ws, lambda m: m["type"] in ("state", "error")) if said["type"] == "joined" else said
        return first | {"by": said.get("by")}


def role(client: TestClient, match_id: str, secret: str | None, token: str | None = None) -> str:
    """The role a page joins as (``you``), or the code of its refusal."""
    first = joined(client, match_id, secret, token)
    return str(first["you"] if first["type"] == "state" else first["code"])


def test_a_signed_in_player_plays_his_seat_by_the_address_on_another_device(client: TestClient) -> None:
    eleni = sign_up(client, "Eleni")
    with as_player(client, eleni):
        links = new_match(client, opponent="beginner", length=3, games="portes", seat="black")
    first = joined(client, links["match"], eleni)  # her phone: no token of the seat in its browser
    assert first["type"] == "state" and first["you"] == "black" and first["by"] == "account"
    with as_player(client, eleni), client.websocket_connect(f"/ws/{links['match']}") as ws:
        ws.send_json({"type": "hello"})
        state = until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "resign", "seq": state["seq"], "match": True})  # what only a player may do
        over = until(ws, lambda m: m["type"] in ("state", "error") and (m["type"] == "error" or m["over"]))
    assert over["type"] == "state" and over["winner"] == "white"


def test_the_spectators_link_opens_the_seat_of_the_account_signed_in(client: TestClient) -> None:
    eleni = sign_up(client, "Eleni")
    with as_player(client, eleni):
        links = new_match(client, opponent="friend", length=3, games="portes", seat="white")
    watch = token_of(links["watch"])
    assert role(client, links["match"], eleni, watch) == "white"
    assert role(client, links["match"], None, watch) == "spectator"
    first = joined(client, links["match"], eleni, links["token"])  # her seat's own link: as ever, no word
    assert first["you"] == "white" and first["by"] is None


def test_another_account_and_a_guest_still_watch(client: TestClient) -> None:
    eleni, nikos, maria = sign_up(client, "Eleni"), sign_up(client, "Nikos"), sign_up(client, "Maria")
    with as_player(client, eleni):
        links = new_match(client, opponent="friend", length=3, games="portes", seat="white")
    assert role(client, links["match"], nikos, token_of(links["friend"])) == "black"  # Nikos takes his seat
    assert role(client, links["match"], nikos) == "black"  # and has it on any device from then on
    for stranger in (maria, None):
        assert role(client, links["match"], stranger) == "spectator"
        assert role(client, links["match"], stranger, token_of(links["watch"])) == "spectator"
    with as_player(client, maria):  # the state still names the players as before
        state = joined(client, links["match"], maria)
    assert state["players"]["white"]["name"] == "Eleni" and state["players"]["black"]["name"] == "Nikos"


def test_a_private_match_stays_private_to_strangers(client: TestClient) -> None:
    eleni, maria = sign_up(client, "Eleni"), sign_up(client, "Maria")
    with as_player(client, eleni):
        links = new_match(client, opponent="friend", length=3, games="portes", seat="white", private=True)
    assert role(client, links["match"], eleni) == "white"
    assert role(client, links["match"], maria) == "private"
    assert role(client, links["match"], None) == "private"


def test_a_rated_seat_is_its_accounts_on_any_device(client: TestClient) -> None:
    eleni, nikos, maria = sign_up(client, "Eleni"), sign_up(client, "Nikos"), sign_up(client, "Maria")
    with as_player(client, eleni):
        links = new_match(client, opponent="friend", length=3, games="portes", seat="white", rated=True)
    assert role(client, links["match"], nikos, token_of(links["friend"])) == "black"
    assert role(client, links["match"], eleni) == "white"
    assert role(client, links["match"], nikos) == "black"
    assert role(client, links["match"], maria) == "spectator"  # a rated match is anyone's to watch
    assert role(client, links["match"], maria, links["token"]) == "login"  # its seats are its accounts'


def test_a_seat_no_account_holds_is_not_taken_by_the_address(client: TestClient) -> None:
    maria = sign_up(client, "Maria")
    links = new_match(client, opponent="friend", length=3, games="portes")  # a guest's match
    assert role(client, links["match"], maria) == "spectator"
    assert role(client, links["match"], maria, token_of(links["watch"])) == "spectator"
    with as_player(client, maria):
        assert client.get("/api/players/Maria").json()["matches"] == []  # nothing of it became hers


def test_the_rematch_of_a_seat_joined_by_account_is_the_accounts_only(client: TestClient) -> None:
    eleni = sign_up(client, "Eleni")
    with as_player(client, eleni):
        links = new_match(client, opponent="beginner", length=1, games="portes", seat="white")
    watch = token_of(links["watch"])
    with as_player(client, eleni), client.websocket_connect(f"/ws/{links['match']}") as ws:
        ws.send_json({"type": "hello", "token": watch})  # the spectators' link, signed in: her seat
        state = until(ws, lambda m: m["type"] == "state")
        assert state["you"] == "white"
        ws.send_json({"type": "resign", "seq": state["seq"], "match": True})
        over = until(ws, lambda m: m["type"] == "state" and m["over"])
        ws.send_json({"type": "rematch", "seq": over["seq"]})
        rematch = until(ws, lambda m: m["type"] == "state" and m["rematch"] is not None)["rematch"]
    # no token her page sent or none at all gives a seat of the rematch to whoever works it out
    for guessed in (rematch_token("", rematch), rematch_token(watch, rematch)):
        assert role(client, rematch, None, guessed) == "bad-token"
    assert role(client, rematch, eleni) == "black"  # the seats swapped, the account's still
    assert role(client, rematch, None) == "spectator"


def test_a_players_page_says_which_matches_the_one_asking_plays(client: TestClient) -> None:
    eleni, nikos, maria = sign_up(client, "Eleni"), sign_up(client, "Nikos"), sign_up(client, "Maria")
    with as_player(client, eleni):
        links = new_match(client, opponent="friend", length=3, games="portes", seat="white")
    role(client, links["match"], nikos, token_of(links["friend"]))
    for secret, yours in ((eleni, True), (nikos, True), (maria, False), (None, False)):
        with as_player(client, secret):
            (listed,) = client.get("/api/players/Eleni").json()["matches"]
        assert listed["result"] == "playing" and listed["yours"] is yours

