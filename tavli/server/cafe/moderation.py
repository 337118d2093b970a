"""The café's moderators (docs/cafe.md, "Moderators"): what a moderator reads (``Moderation.overview``:
the open reports, each with the reported account, the match and its chat, and the log of every
moderator's action) and what he may do (``Moderation.act``): warn a player, close his chat for some
days (a mute) or open it again, rename an offensive name, close an account, or dismiss a report.

Each action is kept in the log (``tavli.server.storage.moderation_log``) with the report it settles,
and told at once to every server process (the lobby's channel, note ``account``): a warning, a mute
or a renaming is shown to the player on every page he has open, and on each page he opens until he
has read it; a mute closes his chat on the match connections open now; a closing ends his sessions
and closes every connection he has open, and takes his seeks and challenges away. His matches stay,
shown under the name a deleted account has.

>>> parsed({"action": "mute", "account": 7, "days": 3}).days
3.0
>>> parsed({"action": "kick", "account": 7})
Traceback (most recent call last):
...
tavli.server.cafe.moderation.ModerationError: action must be one of warn, mute, unmute, rename, close, dismiss
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TypeGuard

from tavli.errors import TavliError
from tavli.server.cafe.accounts import Account, Accounts
from tavli.server.cafe.chat import MAX_NOTE, clean_line
from tavli.server.cafe.lobby import Lobby
from tavli.server.storage.chat_log import ChatLog, Report
from tavli.server.storage.moderation_log import NOTICED, ModerationLog

ACTIONS = ("warn", "mute", "unmute", "rename", "close", "dismiss")
"""What a moderator may do, as the actions' ``action`` names it."""
FIELDS = {"action", "account", "report", "note", "days", "name"}
MUTE_DAYS = (1, 3650)
"""The fewest and most days a mute may last."""
CHAT_SHOWN = 50
"""The last lines of each room of a reported match a moderator is shown."""
LOG_SHOWN = 100
"""The last actions of the log a moderator is shown."""


class ModerationError(TavliError):
    """A moderator's request that breaks the rules (a 400)."""


class NotModerator(ModerationError):
    """Someone who is not a moderator asks for a moderator's page or action (a 403)."""


class NothingThere(ModerationError):
    """An action on an account or report that is not there, or no longer open (a 404)."""


@dataclass(frozen=True)
class Request:
    """A moderator's action, checked for its form (``parsed``)."""

    action: str
    account: int | None
    report: int | None
    note: str
    days: float | None
    name: object


def _is_id(value: object) -> TypeGuard[int | None]:
    """Whether ``value`` names a row by its number (None: names none)."""
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1)


def parsed(body: object) -> Request:
    """The action a JSON body asks for; ``ModerationError`` for one of the wrong form."""
    if not isinstance(body, dict) or set(body) - FIELDS:
        raise ModerationError("the request is a JSON object with {fields}", fields=", ".join(sorted(FIELDS)))
    action = body.get("action")
    if action not in ACTIONS:
        raise ModerationError("action must be one of {actions}", actions=", ".join(ACTIONS))
    account, report = body.get("account"), body.get("report")
    if not _is_id(account):
        raise ModerationError("an account is named by its number, as the moderators' page gives it")
    if not _is_id(report):
        raise ModerationError("a report is named by its number, as the moderators' page gives it")
    note = body.get("note", "")
    if not isinstance(note, str):
        raise ModerationError("the note is text")
    note = clean_line(note, MAX_NOTE)
    days = body.get("days")
    if action == "mute":
        if not isinstance(days, int | float) or isinstance(days, bool) or not MUTE_DAYS[0] <= days <= MUTE_DAYS[1]:
            raise ModerationError("a mute lasts {least} to {most} days", least=MUTE_DAYS[0], most=MUTE_DAYS[1])
    elif days is not None:
        raise ModerationError("only a mute has days")
    if action == "dismiss" and report is None:
        raise ModerationError("dismiss names the report it dismisses")
    if action != "dismiss" and account is None:
        raise ModerationError("name the account acted on")
    if action == "warn" and not note:
        raise ModerationError("a warning says something: write it in the note")
    if action == "rename" and "name" not in body:
        raise ModerationError("a renaming gives the new name")
    return Request(str(action), account, report, note, None if days is None else float(days), body.get("name"))


@dataclass
class Moderation:
    """The moderators' reading and acting, on the café's database and its lobby (which tells every
    server process of each action)."""

    accounts: Accounts
    chat: ChatLog
    log: ModerationLog
    lobby: Lobby

    @staticmethod
    def check(account: Account | None) -> Account:
        if account is None or not account.moderator or account.disabled:
            raise NotModerator("only the café's moderators may do this")
        return account

    async def overview(self, moderator: Account | None) -> dict[str, Any]:
        """The open reports (oldest first), each with its account, match and chat, and the log."""
        self.check(moderator)
        reports = await self.chat.open_reports()
        found = await self.accounts.by_ids([r.reported_account for r in reports if r.reported_account is not None])
        return {"reports": [await self._shown(report, found) for report in reports],
                "log": [action.logged() for action in await self.log.recent(LOG_SHOWN)]}

    async def _shown(self, report: Report, accounts: dict[int, Account]) -> dict[str, Any]:
        account = accounts.get(report.reported_account) if report.reported_account is not None else None
        lines = await self.chat.lines_of(report.match_id, CHAT_SHOWN) if report.match_id else []
        return {"id": report.id, "reporter_name": report.reporter_name, "reported": report.reported,
                "account": None if account is None else {
                    "id": account.id, "name": account.shown, "closed": account.deleted,
                    "chat_banned_until": account.chat_banned_until if account.chat_banned(time.time()) else None},
                "match": report.match_id, "reason": report.reason, "note": report.note, "at": report.at,
                "chat": [line.shown() for line in lines]}

    async def act(self, moderator: Account | None, body: object) -> int:
        """Carry out a moderator's action; the id it is logged under. ``NotModerator``,
        ``NothingThere``, ``ModerationError``, or the accounts' errors for a new name."""
        moderator = self.check(moderator)
        request = parsed(body)
        report = None
        if request.report is not None:
            report = await self.chat.open_report(request.report)
            if report is None:
                raise NothingThere("no open report {id}: another moderator may have settled it", id=request.report)
        account = None
        if request.account is not None:
            account = (await self.accounts.by_ids([request.account])).get(request.account)
            if account is None or account.deleted:
                raise NothingThere("no account {id}, or it is closed", id=request.account)
            if account.id == moderator.id:
                raise ModerationError("a moderator does not act on his own account")
        now, detail = time.time(), await self._carry_out(request, account)
        action_id = await self.log.add(moderator.id, None if account is None else account.id,
                                       None if account is None else account.name, request.action,
                                       request.report, request.note, detail, now)
        if report is not None:
            await self.chat.settle(report.id, "dismissed" if request.action == "dismiss" else "done")
        if account is not None:
            kept = await self.log.get(action_id) if request.action in NOTICED else None
            renamed = {"from": account.name, "to": detail.get("to", "(deleted)")} \
                if request.action in ("rename", "close") else {}
            await self.lobby.tell({"k": "account", "id": account.id, "action": request.action,
                                   "until": detail.get("until"), "notice": None if kept is None else kept.notice()}
                                  | renamed)
        if request.action == "close" and account is not None:
            await self.lobby.withdraw_all(f"a{account.id}")
        return action_id

    async def _carry_out(self, request: Request, account: Account | None) -> dict[str, Any]:
        """Change the account as the action says; the details the log keeps of it."""
        if account is None:
            return {}
        if request.action == "mute":
            assert request.days is not None
            until = time.time() + request.days * 86400.0
            await self.accounts.ban_chat(account.id, until)
            return {"days": request.days, "until": until}
        if request.action == "unmute":
            await self.accounts.ban_chat(account.id, None)
            return {"until": None}
        if request.action == "rename":
            return {"from": account.name, "to": await self.accounts.rename(account.id, request.name)}
        if request.action == "close":
            await self.accounts.close(account.id)
        return {}

    async def read(self, account: Account | None, notice_id: int) -> None:
        """The player says he has read a notice of his; ``NothingThere`` if it is none of his unread."""
        if account is None or not await self.log.read(account.id, notice_id):
            raise NothingThere("no unread notice {id} of yours", id=notice_id)
