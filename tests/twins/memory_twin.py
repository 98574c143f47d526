"""Pure-Python twin of the public card memory (``ST_KNOWN`` / ``OB_KNOWN``), written plainly
from what the table sees happen.

Moves are tuples in the twin's own words (kinds are plain ints, the player a seat):

- ``("discard", p, kind)``: p discards a card; it goes on the pile;
- ``("take", p)``: p takes the pile; the top card and a pair of it from p's hand are melded
  (PILE-1), the rest is set aside until p's team's opening stands;
- ``("joins", p)``: the cards set aside join p's hand (seen by everyone as they were taken);
- ``("meld", p, slot, nat, two, joker)``: p melds ``nat`` naturals of ``slot`` (none for the
  wild meld), ``two`` twos and ``joker`` jokers from hand;
- ``("lay", p, kind)``: p lays down a three.

Draws from the stock are hidden and change nothing the table knows.
"""

TWO, JOKER = 1, 0  #: the wild kinds (sim.kinds: JOKER 0, TWO 1)
WILD_MELD = 0  #: the wild meld's slot


class Memory:
    """What the table knows of each hand: a dict kind -> count per seat."""

    def __init__(self, players=4):
        self.known = [{} for _ in range(players)]
        self.pile = []  # kinds, bottom first
        self.aside = []

    def _forget(self, p, kind, n):
        # which copies left cannot be told: as many known ones go as cards were shown
        self.known[p][kind] = max(self.known[p].get(kind, 0) - n, 0)

    def play(self, move):
        what, p = move[0], move[1]
        if what == "discard":
            self._forget(p, move[2], 1)
            self.pile.append(move[2])
        elif what == "take":
            top = self.pile[-1]
            self._forget(p, top, 2)  # the pair melded with the top card
            self.aside = self.pile[:-1]
            self.pile = []
        elif what == "joins":
            for kind in self.aside:
                self.known[p][kind] = self.known[p].get(kind, 0) + 1
            self.aside = []
        elif what == "meld":
            _, _, slot, nat, two, joker = move
            if slot != WILD_MELD:
                self._forget(p, slot, nat)
            self._forget(p, TWO, two)
            self._forget(p, JOKER, joker)
        elif what == "lay":
            self._forget(p, move[2], 1)
        else:
            raise ValueError(f"unknown move {move!r}")

    def counts(self, p, n_kinds):
        return [self.known[p].get(k, 0) for k in range(n_kinds)]
