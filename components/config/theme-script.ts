// The theme's storage key; public/theme-init.js reads the same key before the first paint (an external file, so a
// strict Content-Security-Policy without 'unsafe-inline' still allows it).
export const THEME_STORAGE_KEY = "chatty-kg:theme";
export const THEME_INIT_SRC = "/theme-init.js";
