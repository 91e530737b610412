// Bundles cable.js (@anycable/web and what it imports) into one ES module at the path given as the first argument,
// for the Maven build (client/pom.xml). The module starts with a comment naming every bundled package with its
// version and license text, read from the package itself or, for packages published without one, from licenses/.
import { build } from "esbuild";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const output = process.argv[2];
if (!output) {
  console.error("usage: node build.js <output file>");
  process.exit(2);
}

const LICENSE_FILES = ["LICENSE", "LICENSE.md", "LICENSE.txt", "MIT-LICENSE"];

/** The bundled packages' directories, from the inputs esbuild reports (node_modules/<name>/... or @scope/name). */
function packageDirectories(metafile) {
  const directories = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
    if (match) directories.add(match[1]);
  }
  return [...directories].sort();
}

function licenseText(directory, name) {
  const own = LICENSE_FILES.map((file) => join(here, directory, file)).find(existsSync);
  const kept = join(here, "licenses", name.replace("/", "+") + ".txt");
  const file = own ?? (existsSync(kept) ? kept : null);
  if (!file) {
    throw new Error(`${name} ships no license file and licenses/ has none for it: add its license text there`);
  }
  return readFileSync(file, "utf8").trim();
}

// A first pass finds what gets bundled; the second writes the module with the banner made from it.
const options = { entryPoints: [join(here, "cable.js")], bundle: true, format: "esm", platform: "browser",
  target: "es2020", minify: true, legalComments: "none", logLevel: "warning" };
const { metafile } = await build({ ...options, write: false, metafile: true });
const sections = packageDirectories(metafile).map((directory) => {
  const manifest = JSON.parse(readFileSync(join(here, directory, "package.json"), "utf8"));
  const license = licenseText(directory, manifest.name).replaceAll("*/", "* /");
  return `${manifest.name} ${manifest.version} (${manifest.license})\n\n${license}`;
});
const banner = "/*!\n * Quarkus Cable's browser client: @anycable/web bundled into one ES module.\n"
  + " * It contains the following packages, under their licenses:\n *\n"
  + sections.join("\n\n").split("\n").map((line) => (line ? " * " + line : " *")).join("\n") + "\n */";
await build({ ...options, outfile: output, banner: { js: banner } });
