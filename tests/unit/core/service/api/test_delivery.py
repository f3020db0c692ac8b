"""The one delivery order every platform shares, against a surface that writes down each call."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from core.service.api.delivery import GameMessage, Rows, deliver
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import Button, GameView, Reply

SCOPE = Scope("test", "server")
CTX = Context(SCOPE, "channel", "ann", "Ann")
GAME = "g1"
REVIEW = Button(f"stb:review:{GAME}:3:0", "Review")


def view(message: str = "", game: str = GAME) -> GameView:
    return GameView("channel", game, 3, "Shut the Box", "board", message=message)


@dataclass
class Recorder:
    """A surface: every call in order; `gone` are the messages that were deleted."""

    private_first: bool = False
    clicked: str = ""
    pressed: str = ""
    stale: bool = False
    gone: set[str] = field(default_factory=set)
    calls: list[tuple[str, ...]] = field(default_factory=list)

    async def locate(self, view: GameView, clicked: str) -> GameMessage | None:
        if self.stale:
            return None
        return GameMessage(view.message, True) if view.message else GameMessage(clicked, False)

    async def edit_game(self, view: GameView, message: str) -> bool:
        self.calls.append(("edit", message))
        return message not in self.gone

    async def post_game(self, view: GameView) -> str:
        self.calls.append(("post",))
        return "new"

    async def show_panel(self, text: str, rows: Rows) -> None:
        self.calls.append(("panel", text))

    async def post_public(self, text: str, rows: Rows) -> None:
        self.calls.append(("public", text, *(b.label for row in rows for b in row)))

    async def answer_private(self, text: str) -> None:
        self.calls.append(("private", text))

    async def show_private_game(self, view: GameView) -> None:
        self.calls.append(("private_game", view.version))


@dataclass
class Claims:
    """The manager's claims: `first` says whether this delivery announces and posts first."""

    first: bool = True
    other_post: str = "theirs"
    keys: list[str] = field(default_factory=list)
    attached: list[tuple[str, str]] = field(default_factory=list)

    async def publishable(self, scope: Scope, reply: Reply) -> tuple[str, ...]:
        return reply.public if self.first else ()

    async def post_game_once(
        self, scope: Scope, key: str, post: Callable[[], Awaitable[str]], seconds: int = 30
    ) -> tuple[str, bool]:
        self.keys.append(key)
        return (await post(), True) if self.first else (self.other_post, False)

    async def attach_message(self, ctx: Context, message: str) -> None:
        self.attached.append((ctx.channel, message))


async def test_game_first_then_public_texts_then_the_private_note() -> None:
    surface, claims = Recorder(), Claims()
    reply = Reply(private="only you", game=view("m1"), public=("summary",))
    await deliver(reply, surface, claims, CTX)
    assert surface.calls == [("edit", "m1"), ("public", "summary"), ("private", "only you")]
    assert claims.attached == []  # the game knew its message already


async def test_where_the_private_text_is_the_answer_it_comes_right_after_the_game() -> None:
    """Discord answers an interaction once: the user's own answer first, even if repeated."""
    surface = Recorder(private_first=True)
    reply = Reply(private="granted", game=view("m1"), public=("granted",))
    await deliver(reply, surface, Claims(), CTX)
    assert surface.calls == [("edit", "m1"), ("private", "granted"), ("public", "granted")]


async def test_a_private_note_a_public_text_says_already_is_left_out() -> None:
    surface = Recorder()
    await deliver(Reply(private="granted", public=("granted",)), surface, Claims(), CTX)
    assert surface.calls == [("public", "granted")]


async def test_a_repeated_delivery_announces_nothing() -> None:
    surface = Recorder()
    await deliver(Reply(public=("summary",)), surface, Claims(first=False), CTX)
    assert surface.calls == []


async def test_a_page_with_buttons_is_a_panel_and_summaries_carry_their_review() -> None:
    surface = Recorder()
    page = Reply(public=("page 1",), buttons=((Button("stb:board:x:1:2", "Next"),),))
    await deliver(page, surface, Claims(), CTX)
    summary = Reply(public=("round 1", "fair"), review=REVIEW, reviewed=("round 1",))
    await deliver(summary, surface, Claims(), CTX)
    assert surface.calls == [("panel", "page 1"), ("public", "round 1", "Review"),
                             ("public", "fair")]  # fmt: skip


async def test_a_game_without_a_message_is_posted_once_and_attached() -> None:
    surface, claims = Recorder(), Claims()
    await deliver(Reply(game=view()), surface, claims, CTX)
    assert surface.calls == [("post",)]
    assert claims.keys == [f"{GAME}:"] and claims.attached == [("channel", "new")]


async def test_a_deleted_message_is_posted_anew_under_a_key_naming_it() -> None:
    surface, claims = Recorder(gone={"m1"}), Claims()
    await deliver(Reply(game=view("m1")), surface, claims, CTX)
    assert surface.calls == [("edit", "m1"), ("post",)]
    assert claims.keys == [f"{GAME}:m1"] and claims.attached == [("channel", "new")]


async def test_the_other_deliverys_message_shows_this_view_too() -> None:
    surface, claims = Recorder(), Claims(first=False)
    await deliver(Reply(game=view()), surface, claims, CTX)
    assert surface.calls == [("edit", "theirs")]
    assert claims.attached == [("channel", "theirs")]


async def test_a_late_first_post_leaves_the_game_to_its_delivery() -> None:
    surface, claims = Recorder(), Claims(first=False, other_post="")
    await deliver(Reply(game=view()), surface, claims, CTX)
    assert surface.calls == [] and claims.attached == []


async def test_the_pressed_message_is_edited_and_attached_when_the_game_had_none() -> None:
    surface, claims = Recorder(clicked="m9", pressed=f"stb:roll:{GAME}:2:0"), Claims()
    await deliver(Reply(game=view()), surface, claims, CTX)
    assert surface.calls == [("edit", "m9")] and claims.attached == [("channel", "m9")]


async def test_a_rematch_gets_a_message_of_its_own() -> None:
    """The pressed Rematch belongs to the finished match: the new lobby is posted anew."""
    surface = Recorder(clicked="m9", pressed=f"stb:rematch:{GAME}:9:0")
    await deliver(Reply(game=view(game="g2")), surface, Claims(), CTX)
    assert surface.calls == [("post",)]


async def test_a_view_that_is_no_longer_the_latest_is_not_shown() -> None:
    surface = Recorder(stale=True)
    await deliver(Reply(game=view("m1"), public=("summary",)), surface, Claims(), CTX)
    assert surface.calls == [("public", "summary")]
