"""Reporting a player (``POST /api/reports``; docs/cafe.md, "Talk across the table"): a signed-in
player or a guest names whom he reports, in which match, why (``tavli.server.cafe.chat.REPORT_REASONS``)
and, if he likes, a note; the report is kept "open" for a moderator (``ChatLog.open_reports``).
Each person may make ``REPORTS_PER_PERSON`` an hour (counted in the database), each address a few
more (``AppContext.reports``); a page of another site is refused as every POST is
(``tavli.server.routes.cross_site``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from tavli.errors import Reason
from tavli.server.cafe.chat import MAX_NOTE, REPORT_REASONS, clean_line
from tavli.server.play.seats import MATCH_ID, SEATS
from tavli.server.routes.context import context_of
from tavli.server.routes.limits import client_of, json_body
from tavli.server.routes.lobby_api import answer, person_of
from tavli.server.routes.responses import error

REPORTS_PER_PERSON = 10
"""Reports one person (an account, or a guest's browser) may make in an hour."""
FIELDS = {"name", "match", "seat", "reason", "note"}
NAME_LENGTH = 32


async def report(request: Request) -> Response:
    """Keep a report of a player: ``{"name", "match"?, "seat"?, "reason", "note"?}``; 201 with its id."""
    context = context_of(request)
    body = await json_body(request, context.options.request_seconds)
    if isinstance(body, Response):
        return body
    if not isinstance(body, dict) or set(body) - FIELDS:
        return error(Reason("the request is a JSON object with {fields}", fields=", ".join(sorted(FIELDS))), 400)
    name, match_id, seat = body.get("name"), body.get("match"), body.get("seat")
    reason, note = body.get("reason"), body.get("note", "")
    if not isinstance(name, str) or not clean_line(name, NAME_LENGTH):
        return error("name the player you report", 400)
    if reason not in REPORT_REASONS:
        return error(Reason("reason must be one of {reasons}", reasons=", ".join(REPORT_REASONS)), 400)
    if not isinstance(note, str):
        return error("the note is text", 400)
    if match_id is not None and (not isinstance(match_id, str) or MATCH_ID.fullmatch(match_id) is None
                                 or await context.store.settings_of(match_id) is None):
        return error("no such match", 404)
    if seat is not None and (seat not in (*SEATS, "spectator") or match_id is None):
        return error(Reason("a seat is one of {seats}, and goes with its match", seats="white, black, spectator"), 400)
    person, new = await person_of(request)
    if not context.reports.allow(client_of(request)):
        return error("too many reports from this address: try again later", 429)
    reported_account = None
    if match_id is not None and seat in SEATS:
        reported_account = (await context.store.accounts_of(match_id)).get(seat)
    if reported_account is None:
        found = await context.accounts.find(clean_line(name, NAME_LENGTH))
        reported_account = found.id if found is not None else None
    kept = await context.talk.log.report(
        person.key, person.account.name if person.account else None, clean_line(name, NAME_LENGTH),
        reported_account, match_id, str(reason), clean_line(note, MAX_NOTE), most=REPORTS_PER_PERSON, window=3600.0)
    if kept is None:
        return error(Reason("at most {count} reports an hour: try again later", count=REPORTS_PER_PERSON), 429)
    return answer({"report": kept}, 201, request, new)


ROUTES: list[BaseRoute] = [Route("/api/reports", report, methods=["POST"])]
