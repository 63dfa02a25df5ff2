// The theme's storage key and the tiny inline script that applies a stored theme before the first paint.
export const THEME_STORAGE_KEY = "chatty-kg:theme";

export const THEME_INIT_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="dark"||t==="light"){document.documentElement.classList.add(t)}}catch(e){}`;
