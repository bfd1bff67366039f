import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
/** The CSP nonce of this document (empty in the browser, which hides nonces from the DOM). */
export const useNonce = () => useContext(NonceContext);
