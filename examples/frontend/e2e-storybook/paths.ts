// Where the Storybook tests write what CI keeps: the static build and a screenshot per story.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (examples/frontend/e2e-storybook/ → ../../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** test-artifacts/storybook/: static/ (the build) and screenshots/ (one PNG per story). */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'storybook');
