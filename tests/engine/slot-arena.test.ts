// The arena under the records and the views (slot-arena.ts): what is written
// reads back, whatever its characters; a reservation comes in pieces a Buffer
// and an Int32 offset can hold.
import { CHUNK_BYTES, SlotArena } from '../../server/engine/slot-arena';

test('put → bytes, length and copyTo give the UTF-8 of the text, across chunks and for any characters', () => {
  const texts = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"s":"${'Åsa Öberg 北京 😀 '.repeat(1 + (i % 40))}"}`);
  const arena = new SlotArena(texts.length);
  texts.forEach((text, slot) => arena.put(slot, text));

  expect(arena.heldBytes).toBeGreaterThan(CHUNK_BYTES);
  for (let slot = 0; slot < texts.length; slot++) {
    const utf8 = Buffer.from(texts[slot]!);
    expect(arena.bytes(slot).equals(utf8)).toBe(true);
    expect(arena.length(slot)).toBe(utf8.length);
    const out = Buffer.alloc(utf8.length + 2);
    expect(arena.copyTo(slot, out, 1)).toBe(utf8.length);
    expect(out.subarray(1, 1 + utf8.length).equals(utf8)).toBe(true);
  }
});

test('reserve(3 GiB) → a 1 GiB piece now, the rest only as pieces fill; small reservations take no new chunk', () => {
  const arena = new SlotArena(4);
  arena.put(0, 'x');
  arena.reserve(CHUNK_BYTES / 2);
  expect(arena.heldBytes).toBe(CHUNK_BYTES);

  // Buffer.allocUnsafeSlow maps the memory without touching it: a GiB here costs no RSS.
  arena.reserve(3 * 2 ** 30);
  expect(arena.heldBytes).toBe(CHUNK_BYTES + 2 ** 30);
  arena.put(1, 'y');
  expect(arena.bytes(1).toString()).toBe('y');
  expect(arena.heldBytes).toBe(CHUNK_BYTES + 2 ** 30);
});
