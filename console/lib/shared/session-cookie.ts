/** Name of the httpOnly cookie that carries the supervisor's session token (read by the proxy and the server). */
export const SESSION_COOKIE = 'vigil_session';
