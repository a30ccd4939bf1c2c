// Scenario files in and out of the browser: a download named after the
// scenario, and reading a chosen file as text.

/** `<name>.json`, the name reduced to characters every file system accepts. */
export function exportFileName(name: string): string {
  const base = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
  return `${base || 'scenario'}.json`;
}

/** Starts a download of `text` as a JSON file. */
export function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own reference by now; free ours on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
