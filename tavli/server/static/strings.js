// The words of the web app, in English and Greek. Every string shown to players comes from here.

export const STRINGS = {
  en: {
    title: "Tavli",
    tagline: "Portes, Plakoto and Fevga, the Greek backgammon games",
    newMatch: "New match",
    opponent: "Opponent",
    friend: "A friend (share a link)",
    length: "Match length (points)",
    other: "other…",
    games: "Games",
    gamesTavli: "Tavli: Portes, Plakoto, Fevga in turn",
    gamesPortes: "Portes only",
    gamesPlakoto: "Plakoto only",
    gamesFevga: "Fevga only",
    gamesCustom: "Custom order…",
    customOrder: "Order, like fevga,portes",
    seat: "Your colour",
    white: "White",
    black: "Black",
    random: "Random",
    houseRules: "House rules",
    motherPin: "Plakoto: pinning the mother",
    motherDouble: "ends the game, 2 points",
    motherSingle: "ends the game, 1 point",
    motherOff: "is an ordinary pin",
    primeLimits: "Fevga: the prime limits apply (unticked: Moultezim, no limit)",
    primeInStart: "Fevga: never hold all six points of the opponent's starting quarter",
    start: "Start the match",
    starting: "Starting…",
    shareTitle: "Invite",
    shareFriend: "Link for your friend",
    shareWatch: "Link for spectators",
    copy: "Copy",
    copied: "Copied",
    roll: "Roll",
    undo: "Undo",
    confirm: "Confirm",
    claim: "Claim the game",
    claimIn: "Opponent away: claim in {s} s",
    autoRoll: "Roll for me",
    score: "{w} – {b} · to {n}",
    gameOf: "Game {n} · {variant}",
    pips: "pips",
    moves: "Moves",
    noPlay: "no play",
    opening: "Opening roll: White {w} · Black {b}",
    you: "you",
    human: "player",
    bot: "bot: {level}",
    connected: "connected",
    away: "away",
    watching: "Watching",
    yourRoll: "Your turn: roll the dice",
    yourMove: "Your turn: move {dice}",
    confirmMove: "Confirm your move, or undo",
    waiting: "{who} to play",
    thinking: "{who} is thinking…",
    passed: "No legal move with {dice}: the turn passed",
    gameOver: "{who} wins game {n} ({points} point{s}): {reason}",
    matchOver: "{who} wins the match {w} – {b}",
    youWin: "You win the match!",
    youLose: "You lose the match.",
    continue: "Continue",
    checkDice: "Check the dice",
    downloadMatch: "Download the match",
    seed: "Seed",
    commitment: "Dice commitment",
    reconnecting: "Connection lost: reconnecting…",
    connecting: "Connecting…",
    badLink: "This link is not valid for this match.",
    Portes: "Portes",
    Plakoto: "Plakoto",
    Fevga: "Fevga",
    language: "Language",
  },
  el: {
    title: "Τάβλι",
    tagline: "Πόρτες, Πλακωτό και Φεύγα",
    newMatch: "Νέο παιχνίδι",
    opponent: "Αντίπαλος",
    friend: "Ένας φίλος (μοιραστείτε έναν σύνδεσμο)",
    length: "Πόντοι για τη νίκη",
    other: "άλλο…",
    games: "Παιχνίδια",
    gamesTavli: "Τάβλι: Πόρτες, Πλακωτό, Φεύγα με τη σειρά",
    gamesPortes: "Μόνο Πόρτες",
    gamesPlakoto: "Μόνο Πλακωτό",
    gamesFevga: "Μόνο Φεύγα",
    gamesCustom: "Δική σας σειρά…",
    customOrder: "Σειρά, π.χ. fevga,portes",
    seat: "Το χρώμα σας",
    white: "Λευκά",
    black: "Μαύρα",
    random: "Τυχαία",
    houseRules: "Κανόνες του σπιτιού",
    motherPin: "Πλακωτό: το πλάκωμα της μάνας",
    motherDouble: "τελειώνει το παιχνίδι, 2 πόντοι",
    motherSingle: "τελειώνει το παιχνίδι, 1 πόντος",
    motherOff: "είναι απλό πλάκωμα",
    primeLimits: "Φεύγα: ισχύουν τα όρια στα φράγματα (χωρίς: Μουλτεζίμ, κανένα όριο)",
    primeInStart: "Φεύγα: ποτέ και τα έξι σημεία της αφετηρίας του αντιπάλου",
    start: "Αρχίστε",
    starting: "Ξεκινά…",
    shareTitle: "Πρόσκληση",
    shareFriend: "Σύνδεσμος για τον φίλο σας",
    shareWatch: "Σύνδεσμος για θεατές",
    copy: "Αντιγραφή",
    copied: "Αντιγράφηκε",
    roll: "Ρίξτε",
    undo: "Αναίρεση",
    confirm: "Επιβεβαίωση",
    claim: "Διεκδίκηση παιχνιδιού",
    claimIn: "Ο αντίπαλος λείπει: διεκδίκηση σε {s} δ",
    autoRoll: "Αυτόματη ζαριά",
    score: "{w} – {b} · στους {n}",
    gameOf: "Παιχνίδι {n} · {variant}",
    pips: "πόντοι δρόμου",
    moves: "Κινήσεις",
    noPlay: "καμία κίνηση",
    opening: "Αρχική ζαριά: Λευκά {w} · Μαύρα {b}",
    you: "εσείς",
    human: "παίκτης",
    bot: "υπολογιστής: {level}",
    connected: "συνδεδεμένος",
    away: "εκτός",
    watching: "Παρακολούθηση",
    yourRoll: "Σειρά σας: ρίξτε τα ζάρια",
    yourMove: "Σειρά σας: παίξτε {dice}",
    confirmMove: "Επιβεβαιώστε την κίνηση ή αναιρέστε",
    waiting: "Παίζουν τα {who}",
    thinking: "Τα {who} σκέφτονται…",
    passed: "Καμία νόμιμη κίνηση με {dice}: η σειρά πέρασε",
    gameOver: "Τα {who} κερδίζουν το παιχνίδι {n} ({points} πόντ.): {reason}",
    matchOver: "Τα {who} κερδίζουν {w} – {b}",
    youWin: "Κερδίσατε!",
    youLose: "Χάσατε.",
    continue: "Συνέχεια",
    checkDice: "Έλεγχος ζαριών",
    downloadMatch: "Λήψη του αγώνα",
    seed: "Σπόρος",
    commitment: "Δέσμευση ζαριών",
    reconnecting: "Η σύνδεση χάθηκε: επανασύνδεση…",
    connecting: "Σύνδεση…",
    badLink: "Ο σύνδεσμος δεν ισχύει για αυτό το παιχνίδι.",
    Portes: "Πόρτες",
    Plakoto: "Πλακωτό",
    Fevga: "Φεύγα",
    language: "Γλώσσα",
  },
};

export function language() {
  const saved = localStorage.getItem("tavli:lang");
  if (saved && STRINGS[saved]) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("el") ? "el" : "en";
}

export function setLanguage(lang) {
  localStorage.setItem("tavli:lang", lang);
  document.documentElement.lang = lang;
}

/** The string `key` in the chosen language, with `{name}` filled in from `vars`. */
export function t(key, vars = {}) {
  const table = STRINGS[language()];
  const text = table[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

/** Fill every element with data-i18n="key" with its string. */
export function translatePage(root = document) {
  document.documentElement.lang = language();
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** A language switch in `select`. */
export function languageSwitch(select, onChange) {
  select.innerHTML = '<option value="en">English</option><option value="el">Ελληνικά</option>';
  select.value = language();
  select.addEventListener("change", () => { setLanguage(select.value); translatePage(); onChange?.(); });
}
