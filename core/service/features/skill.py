"""A player's rating as OpenSkill keeps it (Plackett–Luce's mu and sigma), and the number
players see. Its own module so that what a change carries (core/service/features/keeping.py)
can name it without the ratings' computation."""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
BASE, SCALE = 1500, 20  # shown rating: 1500 for a newcomer, plus 20 per point of mu - 3 sigma


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def shown(self) -> int:
        """The number players see: a newcomer starts at 1,500."""
        return round(BASE + SCALE * (self.mu - 3 * self.sigma))

    def to_str(self) -> str:
        return f"{self.mu:.6f} {self.sigma:.6f}"

    @classmethod
    def from_str(cls, text: str) -> Skill:
        mu, sigma = text.split()
        return cls(float(mu), float(sigma))
