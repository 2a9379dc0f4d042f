// The question the data engine answers (ClientStore.page): one list request,
// parsed once by the pipeline (pipeline/request.ts) and passed down as this
// value. A leaf, so the pipeline can name it without loading the engine.
export interface ListQuery {
  page: number;
  pageSize: number;
  active?: boolean;
  /** As sent: the engine folds it into a search term (normalizeTerm); Link echoes it as it came. */
  filter?: string;
  /** Lower case (uuids compare case-insensitively). */
  idStaff?: string;
  idLocation?: string;
}
