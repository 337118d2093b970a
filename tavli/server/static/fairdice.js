// Fair dice in the browser: SHA-256 and HMAC-SHA256 (in plain JS, so that pages served over plain
// http can use them too), the dice of a seed (docs/web.md, "Fair dice"; tavli/fairdice.py), the check
// of a finished game, and the token of a seat in a rematch (tavli.server.play.seats.rematch_token).

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of the bytes `data` (a Uint8Array), as a Uint8Array of 32 bytes. */
export function sha256(data) {
  const length = data.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    const add = [a, b, c, d, e, f, g, k];
    for (let i = 0; i < 8; i++) h[i] = (h[i] + add[i]) >>> 0;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]);
  return out;
}

/** HMAC-SHA256 of `message` under `key` (both Uint8Array). */
export function hmacSha256(key, message) {
  let k = key.length > 64 ? sha256(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = new Uint8Array(64 + message.length), outer = new Uint8Array(96);
  for (let i = 0; i < 64; i++) { inner[i] = block[i] ^ 0x36; outer[i] = block[i] ^ 0x5c; }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
export const fromHex = (text) => new Uint8Array((text.match(/../g) || []).map((h) => parseInt(h, 16)));
const utf8 = (text) => new TextEncoder().encode(text);

/** The first `count` dice of a seed: HMAC-SHA256(seed, j) for j = 0, 1, …; bytes ≥ 252 skipped. */
export function diceOfSeed(seed, count) {
  const dice = [];
  for (let j = 0; dice.length < count; j++) {
    const counter = new Uint8Array(8);
    new DataView(counter.buffer).setUint32(4, j);
    for (const b of hmacSha256(seed, counter)) if (b < 252 && dice.length < count) dice.push((b % 6) + 1);
  }
  return dice;
}

/**
 * Check one finished game of `/api/matches/{id}/dice`: the seed's SHA-256 is the commitment, and the
 * seed's dice are the roll-off then every roll. Returns {ok, hashOk, dice} (dice: how many compared).
 */
export function checkGame(record) {
  const seed = fromHex(record.seed || "");
  const hashOk = seed.length === 32 && hex(sha256(seed)) === record.commitment;
  const wanted = [...record.opening.flat(), ...record.rolls.flat()];
  const got = diceOfSeed(seed, wanted.length);
  const diceOk = wanted.every((d, i) => d === got[i]);
  return { ok: hashOk && diceOk, hashOk, dice: wanted.length };
}

/** A spectator's token in the rematch `matchId`: made from the SHA-256 of his token in the match
 * before, which the server keeps (tavli.server.play.seats.spectator_rematch_token). */
export function spectatorRematchToken(token, matchId) {
  return rematchToken(hex(sha256(utf8(token))), matchId);
}

/** A seat's token in the rematch `matchId`, from its token in the match before. */
export function rematchToken(token, matchId) {
  const digest = hmacSha256(utf8(token), utf8(`rematch:${matchId}`));
  const b64 = btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_");
  return b64.slice(0, 32);
}
