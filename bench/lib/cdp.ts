/**
 * Chromium's own cookie store, set over the DevTools protocol (Node's WebSocket, no dependency).
 * Lighthouse does not clear cookies between runs, and a Cookie header given as `extraHeaders` loses
 * to the browser's own cookies as soon as a page has set one — so the bench puts the signed-in
 * learner's cookies in the browser itself, and clears them for a visitor's page.
 */
interface BrowserCookie {
  name: string;
  value: string;
  path: string;
}

async function browserCommand(port: number, method: string, params: Record<string, unknown>): Promise<void> {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error("DevTools socket failed")), { once: true });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("message", (event) => {
        const reply = JSON.parse(String(event.data)) as { id?: number; error?: { message: string } };
        if (reply.id !== 1) return;
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve();
      });
      socket.send(JSON.stringify({ id: 1, method, params }));
    });
  } finally {
    socket.close();
  }
}

/** Replaces every cookie of the browser with `cookies`, set for `origin`. */
export async function useCookies(port: number, origin: string, cookies: BrowserCookie[]): Promise<void> {
  await browserCommand(port, "Storage.clearCookies", {});
  if (cookies.length === 0) return;
  const { hostname, protocol } = new URL(origin);
  await browserCommand(port, "Storage.setCookies", {
    cookies: cookies.map((c) => ({
      name: c.name,
      value: c.value,
      path: c.path,
      domain: hostname,
      secure: protocol === "https:",
      httpOnly: true,
      sameSite: "Lax",
    })),
  });
}
