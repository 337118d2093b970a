// Every word the web app shows, in English and Greek (Ελληνικά).
//
// t("key", {name: value}) fills {name} placeholders. The language is kept in
// localStorage ("tavli:lang"); the first visit follows the browser's language.
// Elements carrying data-i18n="key" get their text from here (data-i18n-placeholder,
// data-i18n-title and data-i18n-aria for attributes) whenever the language changes.

const STRINGS = {
  en: {
    appName: "Tavli",
    tagline: "Portes, Plakoto and Fevga — the three games of Greek backgammon",
    language: "Language",
    // start page
    newMatch: "New match",
    opponent: "Opponent",
    opponentBots: "Against the computer",
    opponentPeople: "Against a person",
    friend: "A friend — you send a link",
    length: "Match length",
    lengthPoint: "1 point (a single game)",
    lengthOther: "Other…",
    lengthOtherLabel: "Points (1–25)",
    lengthInvalid: "The match length is a whole number of points from 1 to 25.",
    games: "Games",
    gamesTavli: "Tavli — Portes, Plakoto, Fevga in turn",
    gamesPortes: "Portes only",
    gamesPlakoto: "Plakoto only",
    gamesFevga: "Fevga only",
    gamesCustom: "Custom order…",
    gamesCustomPlaceholder: "e.g. fevga,portes",
    gamesCustomHint: "Game names separated by commas: portes, plakoto, fevga.",
    seat: "Your colour",
    seatWhite: "White",
    seatBlack: "Black",
    seatRandom: "Random",
    houseRules: "House rules",
    motherPin: "Plakoto — pinning the mother",
    motherPinHint: "The mother is a player's last checker on his starting point.",
    motherDouble: "wins the game, 2 points",
    motherSingle: "wins the game, 1 point",
    motherOff: "is an ordinary pin",
    primeLimits: "Fevga — prime limits",
    primeLimitsHint: "Unticked: Moultezim, where any block is allowed.",
    primeInStart: "Fevga — never hold all six points of the opponent's starting table",
    start: "Start",
    starting: "Starting…",
    levelsError: "The bot levels could not be loaded: {message}",
    networkError: "The server cannot be reached. Check the connection and try again.",
    recent: "Your matches",
    recentResume: "Back to the board",
    recentForget: "Forget",
    aboutRules: "White moves from 24 down to 1 and bears off from 1–6. Each game has its own sealed dice: their seed is published when the game ends.",
    // board page
    boardLabel: "The board",
    roll: "Roll",
    undo: "Undo",
    confirm: "Confirm",
    claim: "Claim the game",
    autoRoll: "Roll for me",
    autoRollHint: "Rolls the dice as soon as it is your turn",
    watching: "Watching",
    score: "Score",
    matchTo: "match to {n}",
    gameOf: "Game {n} · {variant}",
    you: "You",
    yourFriend: "Your friend",
    player: "Player",
    bot: "Bot · {level}",
    connected: "online",
    away: "away",
    pips: "pips",
    pipsTitle: "Pip count: the points still to travel",
    moves: "Moves",
    noMovesYet: "No moves yet.",
    noPlay: "no play",
    opening: "Opening roll: White {w}, Black {b}",
    openingTie: "Opening roll: {w} each, roll again",
    share: "Invite",
    shareFriend: "Your friend's link",
    shareWatch: "Spectators' link",
    sharePlay: "Your own link (keep it to come back)",
    shareHint: "Send the first link to your friend. Anyone with the second one can watch.",
    copy: "Copy",
    copied: "Copied",
    copyInvite: "Copy your friend's link",
    fairDice: "Fair dice",
    commitment: "Commitment of this game's dice",
    fairDiceHint: "The dice come from a secret seed fixed before the game; its hash is shown here and the seed is published when the game ends.",
    checkDice: "Check the dice",
    sequence: "Sequence",
    // status line
    connecting: "Connecting…",
    reconnecting: "Connection lost — reconnecting…",
    reconnectingIn: "Connection lost — reconnecting in {s} s…",
    badLink: "This link is not valid for this match.",
    noToken: "This link has no key: open the link you were given, ending with #t=…",
    yourRoll: "Your turn — roll the dice.",
    yourMove: "Your turn — play {dice}.",
    yourMoveMore: "Play the rest of {dice}, or undo.",
    confirmMove: "Confirm your move, or undo.",
    sending: "Sending…",
    waitingFor: "{who} to play.",
    waitingRoll: "{who} to roll.",
    botThinking: "{who} is thinking…",
    waitingFriend: "Waiting for your friend to join.",
    opponentAway: "Your opponent is away.",
    claimIn: "Your opponent is away: you may claim the game in {s} s.",
    claimNow: "Your opponent is away: you may claim the game.",
    matchOverShort: "The match is over.",
    youPassed: "No legal move with {dice}: your turn passed.",
    otherPassed: "{who} had no legal move with {dice}.",
    // results
    gameOverTitle: "Game {n} is over",
    youWonGame: "You win the game",
    youLostGame: "You lose the game",
    colorWonGame: "{color} wins the game",
    tieGame: "A tie: no points",
    pointsWon: "{n} points",
    pointWon: "1 point",
    seed: "Seed",
    scoreNow: "Score: {score}",
    nextGame: "Next: game {n}, {variant}",
    continue: "Continue",
    matchOverTitle: "Match over",
    youWonMatch: "You win the match!",
    youLostMatch: "You lose the match.",
    colorWonMatch: "{color} wins the match",
    finalScore: "Final score",
    newMatchLink: "New match",
    viewBoard: "Look at the board",
    reason_bore_off: "all checkers borne off",
    reason_double: "a double game: the loser bore off nothing",
    reason_mother: "the mother was pinned",
    reason_both_mothers: "both mothers pinned",
    reason_stuck: "neither side can move",
    reason_claimed: "claimed: the opponent was absent",
    // colours and games
    white: "White",
    black: "Black",
    portes: "Portes",
    plakoto: "Plakoto",
    fevga: "Fevga",
    level_beginner: "Beginner",
    level_casual: "Casual",
    level_intermediate: "Intermediate",
    level_advanced: "Advanced",
    level_expert: "Expert",
    level_champion: "Champion",
    // errors from the server, by code
    "error:bad-message": "The server did not understand the message.",
    "error:too-large": "The message was too large.",
    "error:rate-limited": "Too many messages: slow down.",
    "error:not-joined": "Not joined to the match yet.",
    "error:bad-token": "This link is not valid for this match.",
    "error:not-your-turn": "It is not your turn.",
    "error:spectator": "Spectators cannot play.",
    "error:stale": "The board had changed: here is the current position.",
    "error:illegal": "Not allowed: {message}",
    "error:match-over": "The match is over.",
    "error:not-absent": "Your opponent is not absent (any more).",
    "error:other": "Error: {message}",
  },
  el: {
    appName: "Τάβλι",
    tagline: "Πόρτες, Πλακωτό και Φεύγα — τα τρία παιχνίδια του τάβλι",
    language: "Γλώσσα",
    newMatch: "Νέο ματς",
    opponent: "Αντίπαλος",
    opponentBots: "Με τον υπολογιστή",
    opponentPeople: "Με άνθρωπο",
    friend: "Ένας φίλος — του στέλνετε σύνδεσμο",
    length: "Διάρκεια ματς",
    lengthPoint: "1 πόντος (μία παρτίδα)",
    lengthOther: "Άλλο…",
    lengthOtherLabel: "Πόντοι (1–25)",
    lengthInvalid: "Η διάρκεια του ματς είναι ακέραιος αριθμός πόντων από 1 έως 25.",
    games: "Παιχνίδια",
    gamesTavli: "Τάβλι — Πόρτες, Πλακωτό, Φεύγα με τη σειρά",
    gamesPortes: "Μόνο Πόρτες",
    gamesPlakoto: "Μόνο Πλακωτό",
    gamesFevga: "Μόνο Φεύγα",
    gamesCustom: "Δική σας σειρά…",
    gamesCustomPlaceholder: "π.χ. fevga,portes",
    gamesCustomHint: "Ονόματα χωρισμένα με κόμμα: portes, plakoto, fevga.",
    seat: "Το χρώμα σας",
    seatWhite: "Λευκά",
    seatBlack: "Μαύρα",
    seatRandom: "Στην τύχη",
    houseRules: "Τοπικοί κανόνες",
    motherPin: "Πλακωτό — πλάκωμα της μάνας",
    motherPinHint: "Μάνα είναι το τελευταίο πούλι του παίκτη στην αφετηρία του.",
    motherDouble: "κερδίζει την παρτίδα, 2 πόντοι",
    motherSingle: "κερδίζει την παρτίδα, 1 πόντος",
    motherOff: "είναι απλό πλάκωμα",
    primeLimits: "Φεύγα — όρια στα μπλοκαρίσματα",
    primeLimitsHint: "Χωρίς σημάδι: Μουλτεζίμ, κάθε μπλοκάρισμα επιτρέπεται.",
    primeInStart: "Φεύγα — ποτέ και οι έξι θέσεις της αφετηρίας του αντιπάλου",
    start: "Αρχίστε",
    starting: "Ξεκινάει…",
    levelsError: "Δεν φορτώθηκαν τα επίπεδα του υπολογιστή: {message}",
    networkError: "Ο διακομιστής δεν απαντά. Ελέγξτε τη σύνδεση και ξαναδοκιμάστε.",
    recent: "Τα ματς σας",
    recentResume: "Πίσω στο ταμπλό",
    recentForget: "Διαγραφή",
    aboutRules: "Τα Λευκά κινούνται από το 24 προς το 1 και μαζεύουν από το 1–6. Κάθε παρτίδα έχει σφραγισμένα ζάρια: ο σπόρος τους δημοσιεύεται στο τέλος της.",
    boardLabel: "Το ταμπλό",
    roll: "Ρίξτε",
    undo: "Αναίρεση",
    confirm: "Επιβεβαίωση",
    claim: "Διεκδίκηση παρτίδας",
    autoRoll: "Ρίχνε για μένα",
    autoRollHint: "Ρίχνει τα ζάρια μόλις έρθει η σειρά σας",
    watching: "Παρακολούθηση",
    score: "Σκορ",
    matchTo: "ματς στους {n}",
    gameOf: "Παρτίδα {n} · {variant}",
    you: "Εσείς",
    yourFriend: "Ο φίλος σας",
    player: "Παίκτης",
    bot: "Υπολογιστής · {level}",
    connected: "συνδεδεμένος",
    away: "εκτός",
    pips: "βήματα",
    pipsTitle: "Άθροισμα: οι θέσεις που μένουν να διανυθούν",
    moves: "Κινήσεις",
    noMovesYet: "Καμία κίνηση ακόμα.",
    noPlay: "καμία κίνηση",
    opening: "Αρχική ζαριά: Λευκά {w}, Μαύρα {b}",
    openingTie: "Αρχική ζαριά: {w} και οι δύο, ξανά",
    share: "Πρόσκληση",
    shareFriend: "Ο σύνδεσμος του φίλου σας",
    shareWatch: "Σύνδεσμος για θεατές",
    sharePlay: "Ο δικός σας σύνδεσμος (κρατήστε τον για να επιστρέψετε)",
    shareHint: "Στείλτε τον πρώτο σύνδεσμο στον φίλο σας. Με τον δεύτερο όποιος θέλει παρακολουθεί.",
    copy: "Αντιγραφή",
    copied: "Αντιγράφηκε",
    copyInvite: "Αντιγραφή του συνδέσμου για τον φίλο",
    fairDice: "Τίμια ζάρια",
    commitment: "Δέσμευση για τα ζάρια της παρτίδας",
    fairDiceHint: "Τα ζάρια βγαίνουν από μυστικό σπόρο που ορίζεται πριν από την παρτίδα· εδώ φαίνεται το αποτύπωμά του και ο σπόρος δημοσιεύεται στο τέλος.",
    checkDice: "Έλεγχος των ζαριών",
    sequence: "Σειρά",
    connecting: "Σύνδεση…",
    reconnecting: "Χάθηκε η σύνδεση — επανασύνδεση…",
    reconnectingIn: "Χάθηκε η σύνδεση — επανασύνδεση σε {s} δ…",
    badLink: "Αυτός ο σύνδεσμος δεν ισχύει για αυτό το ματς.",
    noToken: "Ο σύνδεσμος δεν έχει κλειδί: ανοίξτε τον σύνδεσμο που λάβατε, που τελειώνει σε #t=…",
    yourRoll: "Η σειρά σας — ρίξτε τα ζάρια.",
    yourMove: "Η σειρά σας — παίξτε {dice}.",
    yourMoveMore: "Παίξτε τα υπόλοιπα του {dice}, ή αναίρεση.",
    confirmMove: "Επιβεβαιώστε την κίνηση, ή αναίρεση.",
    sending: "Αποστολή…",
    waitingFor: "Παίζουν τα {who}.",
    waitingRoll: "Ρίχνουν τα {who}.",
    botThinking: "Ο υπολογιστής ({who}) σκέφτεται…",
    waitingFriend: "Περιμένουμε τον φίλο σας να μπει.",
    opponentAway: "Ο αντίπαλος λείπει.",
    claimIn: "Ο αντίπαλος λείπει: μπορείτε να διεκδικήσετε την παρτίδα σε {s} δ.",
    claimNow: "Ο αντίπαλος λείπει: μπορείτε να διεκδικήσετε την παρτίδα.",
    matchOverShort: "Το ματς τελείωσε.",
    youPassed: "Καμία επιτρεπτή κίνηση με {dice}: η σειρά σας πέρασε.",
    otherPassed: "Τα {who} δεν είχαν επιτρεπτή κίνηση με {dice}.",
    gameOverTitle: "Τέλος της παρτίδας {n}",
    youWonGame: "Κερδίσατε την παρτίδα",
    youLostGame: "Χάσατε την παρτίδα",
    colorWonGame: "Κερδίζουν τα {color}",
    tieGame: "Ισοπαλία: κανένας πόντος",
    pointsWon: "{n} πόντοι",
    pointWon: "1 πόντος",
    seed: "Σπόρος",
    scoreNow: "Σκορ: {score}",
    nextGame: "Επόμενη: παρτίδα {n}, {variant}",
    continue: "Συνέχεια",
    matchOverTitle: "Τέλος του ματς",
    youWonMatch: "Κερδίσατε το ματς!",
    youLostMatch: "Χάσατε το ματς.",
    colorWonMatch: "Τα {color} κερδίζουν το ματς",
    finalScore: "Τελικό σκορ",
    newMatchLink: "Νέο ματς",
    viewBoard: "Δείτε το ταμπλό",
    reason_bore_off: "μαζεύτηκαν όλα τα πούλια",
    reason_double: "διπλό: ο χαμένος δεν μάζεψε κανένα πούλι",
    reason_mother: "πλακώθηκε η μάνα",
    reason_both_mothers: "πλακώθηκαν και οι δύο μάνες",
    reason_stuck: "κανείς δεν μπορεί να κινηθεί",
    reason_claimed: "διεκδίκηση: ο αντίπαλος έλειπε",
    white: "Λευκά",
    black: "Μαύρα",
    portes: "Πόρτες",
    plakoto: "Πλακωτό",
    fevga: "Φεύγα",
    level_beginner: "Αρχάριος",
    level_casual: "Ερασιτέχνης",
    level_intermediate: "Μέτριος",
    level_advanced: "Προχωρημένος",
    level_expert: "Έμπειρος",
    level_champion: "Πρωταθλητής",
    "error:bad-message": "Ο διακομιστής δεν κατάλαβε το μήνυμα.",
    "error:too-large": "Το μήνυμα ήταν πολύ μεγάλο.",
    "error:rate-limited": "Πάρα πολλά μηνύματα: πιο αργά.",
    "error:not-joined": "Δεν έχετε μπει ακόμα στο ματς.",
    "error:bad-token": "Αυτός ο σύνδεσμος δεν ισχύει για αυτό το ματς.",
    "error:not-your-turn": "Δεν είναι η σειρά σας.",
    "error:spectator": "Οι θεατές δεν παίζουν.",
    "error:stale": "Το ταμπλό είχε αλλάξει: να η τωρινή θέση.",
    "error:illegal": "Δεν επιτρέπεται: {message}",
    "error:match-over": "Το ματς τελείωσε.",
    "error:not-absent": "Ο αντίπαλος δεν λείπει (πια).",
    "error:other": "Σφάλμα: {message}",
  },
};

// Level descriptions as the server words them, and their Greek.
const LEVEL_DESCRIPTIONS_EL = {
  "makes big mistakes often": "κάνει συχνά μεγάλα λάθη",
  "knows the game, still blunders": "ξέρει το παιχνίδι, αλλά κάνει γκάφες",
  "a steady club player": "σταθερός παίκτης του καφενείου",
  "the network's own judgement": "η κρίση του νευρωνικού δικτύου",
  "looks one roll ahead": "βλέπει μία ζαριά μπροστά",
  "looks two rolls ahead": "βλέπει δύο ζαριές μπροστά",
};

// Reasons a game ends, as the server words them, to keys above.
const REASONS = {
  "bore off all checkers": "reason_bore_off",
  "double game: the loser bore off nothing": "reason_double",
  "mother pinned": "reason_mother",
  "both mothers pinned": "reason_both_mothers",
  "neither side can move": "reason_stuck",
  "claimed: the opponent was absent": "reason_claimed",
  "opponent absent": "reason_claimed",
};

export const LANGUAGES = [["en", "English"], ["el", "Ελληνικά"]];
const KEY = "tavli:lang";
const listeners = [];

function stored() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

function initial() {
  const saved = stored();
  if (saved && STRINGS[saved]) return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of langs) {
    const code = String(l || "").toLowerCase().slice(0, 2);
    if (STRINGS[code]) return code;
  }
  return "en";
}

let current = initial();

export function lang() { return current; }

export function setLang(code) {
  if (!STRINGS[code] || code === current) return;
  current = code;
  try { localStorage.setItem(KEY, code); } catch { /* private mode: the choice lasts for this page */ }
  translatePage();
  for (const f of listeners) f(code);
}

export function onLangChange(f) { listeners.push(f); }

export function t(key, params) {
  let s = STRINGS[current][key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
  return s;
}

export function has(key) { return STRINGS.en[key] !== undefined; }

export function levelName(level) {
  return has(`level_${level}`) ? t(`level_${level}`) : String(level || "").replace(/^\w/, (c) => c.toUpperCase());
}

export function levelDescription(text) {
  if (current === "el" && LEVEL_DESCRIPTIONS_EL[text]) return LEVEL_DESCRIPTIONS_EL[text];
  return text || "";
}

export function variantName(name) { return has(name) ? t(name) : String(name || ""); }

export function colorName(color) { return color === "white" || color === "black" ? t(color) : String(color || ""); }

export function reasonText(reason) {
  return REASONS[reason] ? t(REASONS[reason]) : String(reason || "");
}

export function errorText(code, message) {
  const key = `error:${code}`;
  if (has(key)) return t(key, { message: message || "" });
  return t("error:other", { message: message || code || "" });
}

export function translatePage(root = document) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
}

// Fill a <select> with the languages and keep it in step with the choice.
export function languageSelect(select) {
  select.textContent = "";
  for (const [code, name] of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    select.append(option);
  }
  select.value = current;
  select.addEventListener("change", () => setLang(select.value));
  onLangChange((code) => { select.value = code; });
}
