// placeholder
export function sentencesFor(_rule: string): string[] {
  return [];
}
