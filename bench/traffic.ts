// The varied URL mix (issue 13): what many frontend developers or a CI suite
// send, not a few repeated URLs. Seeded, so a run is reproducible: the same
// seed and the same sample give the same URLs in the same order.
//   30% Simple, random page and page size
//   20% Extended, half of them with idStaff / idLocation / active
//   20% Extended with a text `filter` (pieces of served names, e-mails, phones), some with active
//   30% Detail over sampled ids (a few unknown ones: 404)
// Used by `npm run bench` (sample read from the served API) and by the test
// proving the assembled and the fully validated answers are the same bytes.

/** What the generator draws from: values the server actually serves. */
export interface TrafficSample {
  total: number;
  ids: readonly string[];
  names: readonly string[];
  emails: readonly string[];
  phones: readonly string[];
  staff: readonly string[];
  locations: readonly string[];
}

/** mulberry32: tiny, seedable, good enough to pick URLs. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PAGE_SIZES = [10, 25, 25, 25, 50, 100];

export function varyingUrls(sample: TrafficSample, count: number, seed = 1): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const pageOf = (pageSize: number, total: number) => 1 + Math.floor(random() * Math.max(1, Math.ceil(total / pageSize)));
  const term = (): string => {
    const source = pick([sample.names, sample.names, sample.emails, sample.phones]);
    const text = pick(source);
    const length = 2 + Math.floor(random() * 7);
    const at = Math.floor(random() * Math.max(1, text.length - length));
    let piece = text.slice(at, at + length).trim() || text.slice(0, length);
    if (random() < 0.3) piece = piece.toUpperCase();
    if (source === sample.phones && random() < 0.5) piece = piece.replace(/\D/g, '') || piece;
    return piece;
  };
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    const pageSize = pick(PAGE_SIZES);
    if (roll < 0.3) {
      urls.push(`/api/v1/Client/Simple?page=${pageOf(pageSize, sample.total)}&pageSize=${pageSize}`);
    } else if (roll < 0.5) {
      const filters: string[] = [];
      const kind = random();
      if (kind < 0.2) filters.push(`idStaff=${pick(sample.staff)}`);
      else if (kind < 0.35) filters.push(`idLocation=${pick(sample.locations)}`);
      else if (kind < 0.5) filters.push(`active=${random() < 0.5}`);
      // A filtered list is shorter: its pages are drawn from the first few.
      const total = filters.length === 0 ? sample.total : Math.min(sample.total, 20 * pageSize);
      urls.push(`/api/v1/Client/Extended?${[...filters, `page=${pageOf(pageSize, total)}`, `pageSize=${pageSize}`].join('&')}`);
    } else if (roll < 0.7) {
      const active = random() < 0.25 ? `&active=${random() < 0.5}` : '';
      urls.push(
        `/api/v1/Client/Extended?filter=${encodeURIComponent(term())}${active}&page=${random() < 0.8 ? 1 : 2}&pageSize=${pageSize}`,
      );
    } else {
      const id = random() < 0.02 ? '00000000-0000-4000-8000-000000000000' : pick(sample.ids);
      urls.push(`/api/v1/Client/Detail/${id}`);
    }
  }
  return urls;
}
