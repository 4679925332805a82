/* global document */
// Confirms the provider's logout form at once: the user already chose Logout in the portal.
document.getElementById('logout-confirm')?.click();
