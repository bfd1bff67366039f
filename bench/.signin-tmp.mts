import { Browser } from "./lib/http";
import { signIn } from "./lib/setup";
const b = new Browser(process.argv[2]);
await signIn(b, { email: "ada@example.com", password: "demo" }, () => {});
await b.navigate("/learn/courses?clear");
console.log(b.jar.header("/learn"));
