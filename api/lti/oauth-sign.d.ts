/** Types of the parts of `oauth-sign` (the OAuth 1.0a signer `request` used) this project calls. */
declare module "oauth-sign" {
  /** RFC 5849 §3.4.2 HMAC-SHA1 over the signature base string of method, base URI and parameters. */
  export function hmacsign(
    httpMethod: string,
    baseUri: string,
    params: Record<string, string | string[]>,
    consumerSecret: string,
    tokenSecret?: string,
  ): string;
  /** RFC 3986 percent-encoding as OAuth 1.0a requires it. */
  export function rfc3986(value: string): string;
}
