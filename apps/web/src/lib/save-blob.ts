/**
 * Hands a Blob to the browser as a file: an object URL on a temporary link with `download`, clicked, then revoked.
 * The file was fetched with the bearer token, so no token ever appears in a URL the browser follows.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL can go once the browser has taken it (the next task).
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
