/** Where next-auth is mounted: under the console, never under the Partner API's `/api`. */
export const CONSOLE_AUTH_BASE_PATH = "/console/api/auth";
