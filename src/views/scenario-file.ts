// Reading a scenario file the user picked (header Open, editor Import): a
// file larger than a scenario may be is refused by its size, before any of
// it is read, so a 50 MB file never reaches the page's memory or the engine.

/**
 * The largest scenario file the app reads, in bytes. Name kept for the
 * engine's own cap on a scenario text (the lead aligns the two values).
 */
export const MAX_SCENARIO_BYTES = 8 * 1024 * 1024;

/** The file is larger than `MAX_SCENARIO_BYTES`; nothing of it was read. */
export class ScenarioFileTooBig extends Error {
  constructor(
    readonly file: string,
    readonly bytes: number,
  ) {
    super(`${file} is ${mebibytes(bytes)} MiB; a scenario file may be at most ${mebibytes(MAX_SCENARIO_BYTES)} MiB`);
  }
}

/** Bytes as MiB with one decimal, for messages. */
export function mebibytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** The file's text, or ScenarioFileTooBig (checked on `file.size`, before reading). */
export async function readScenarioFile(file: File): Promise<string> {
  if (file.size > MAX_SCENARIO_BYTES) throw new ScenarioFileTooBig(file.name, file.size);
  return file.text();
}
