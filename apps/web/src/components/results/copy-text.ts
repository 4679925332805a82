import { notifyError, notifySuccess } from '../../lib/notify.ts';

/** Writes text to the clipboard and says how it went. */
export async function copyText(text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess(`${what} copied to the clipboard`);
    return true;
  } catch {
    notifyError('The browser did not allow copying to the clipboard');
    return false;
  }
}
