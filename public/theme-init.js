/* global localStorage, document */
// Applies the stored light/dark theme before the first paint (loaded blocking from <head>, so there is no flash).
try {
  var t = localStorage.getItem("chatty-kg:theme");
  if (t === "dark" || t === "light") document.documentElement.classList.add(t);
} catch {
  // storage can be disabled (private mode, blocked cookies): the default theme applies
}
