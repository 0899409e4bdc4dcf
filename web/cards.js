// Card notation (R3) on the phone: the same spellings the API accepts, the same
// canonical order (suits S H D C, ranks A to K).

export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_OF = {
  S: "S", H: "H", D: "D", C: "C",
  "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
};

export const DECK = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));

/** "10h", "T♥️", " as " -> "10H", "AS"; null when it is not a card. */
export function parseCard(text) {
  const m = /^\s*(10|[a1-9tjqk])([shdc\u2660-\u2667])[\ufe0e\ufe0f]?\s*$/iu.exec(text);
  if (!m) return null;
  let rank = m[1].toUpperCase();
  if (rank === "1") rank = "A";
  if (rank === "T") rank = "10";
  const suit = SUIT_OF[m[2].toUpperCase()] || SUIT_OF[m[2]];
  return suit ? rank + suit : null;
}

/** Cards typed in any spelling, separated by spaces or commas: {cards, bad}. */
export function parseCards(text) {
  const cards = [];
  const bad = [];
  for (const word of text.split(/[\s,;]+/u).filter(Boolean)) {
    const card = parseCard(word);
    if (card) cards.push(card);
    else bad.push(word);
  }
  return { cards, bad };
}

export const suitOf = (card) => card.slice(-1);
export const rankOf = (card) => card.slice(0, -1);
export const isRed = (card) => suitOf(card) === "H" || suitOf(card) === "D";
export const canonical = (cards) => [...cards].sort((a, b) => DECK.indexOf(a) - DECK.indexOf(b));
export const face = (card) => rankOf(card) + SYMBOL[suitOf(card)];
