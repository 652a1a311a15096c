import { buildCurrentRelease } from './release';

/** Builds this tree's release once for the release tests (npm run release -- --out=...). */
export default async function globalSetup(): Promise< void > {
	process.stdout.write(
		process.env.RELEASE_ARTIFACTS
			? `\n  release tests: the release in RELEASE_ARTIFACTS=${ process.env.RELEASE_ARTIFACTS }\n`
			: '\n  release tests: building the release (npm run release)\n'
	);
	const state = buildCurrentRelease();
	process.stdout.write( `  release ${ state.version } in ${ state.dir }\n` );
}
