// Issue 31 item 3 (decision 044): the installed app's PNG icons, drawn from public/icons/*.svg after the
// client build (Chrome asks for 192 and 512 px PNGs; a maskable one fills the shapes phones cut icons into).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Resvg } from "@resvg/resvg-js";

const out = "build/client/icons";
mkdirSync(out, { recursive: true });
for (const [source, size, name] of [
  ["icon.svg", 192, "icon-192.png"],
  ["icon.svg", 512, "icon-512.png"],
  ["icon-maskable.svg", 512, "icon-maskable-512.png"],
]) {
  const png = new Resvg(readFileSync(`public/icons/${source}`), { fitTo: { mode: "width", value: size } })
    .render()
    .asPng();
  writeFileSync(`${out}/${name}`, png);
}
console.log("[build] icons: 192, 512 and maskable 512 px PNGs");
