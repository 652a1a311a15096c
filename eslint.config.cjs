/**
 * ESLint (flat config, ESLint 9, as `wp-scripts lint-js` reads it): WordPress's recommended
 * rules for the admin page (React, JSX a11y, i18n) and the same base for the Node sidecar,
 * the scripts, the tests and the benchmarks. Formatting is Prettier's job alone
 * (`npm run format:check`), so the Prettier rule is off here and ESLint reports code only.
 */
const wpPlugin = require( '@wordpress/eslint-plugin' );
const globals = require( 'globals' );

const TEXT_DOMAIN = 'service-integration';

module.exports = [
	{
		ignores: [
			'**/node_modules/**',
			'plugin/build/**',
			'sidecar/dist/**',
			'dist/**',
			'coverage/**',
			'test-artifacts/**',
			'tests/fixtures/**',
			'tests/release/fixtures/**',
		],
	},
	...wpPlugin.configs.recommended,
	{
		rules: {
			'prettier/prettier': 'off',
			// TypeScript's types say what JSDoc tags would repeat; comments here explain why instead.
			'jsdoc/require-param': 'off',
			'jsdoc/require-returns': 'off',
			'jsdoc/check-param-names': 'off',
			'@wordpress/i18n-text-domain': [ 'error', { allowedTextDomain: TEXT_DOMAIN } ],
			// A ternary in a ternary, laid out by Prettier, reads as a table of cases (JSX above all).
			'no-nested-ternary': 'off',
			// It asks to move a declaration below an early return; the ones it flags here start something
			// before the checks on purpose: a clock read on arrival, a timeout, a spy.
			'@wordpress/no-unused-vars-before-return': 'off',
		},
	},
	{
		files: [ '**/*.ts', '**/*.tsx' ],
		rules: {
			// Express knows an error handler by its four parameters: an unused `_next` must stay.
			'@typescript-eslint/no-unused-vars': [ 'error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' } ],
		},
	},
	{
		// The admin page runs on the React WordPress ships (wp.element), so it imports from
		// @wordpress/element; React's types are the global `React` namespace, as in
		// @wordpress/element's own declarations.
		files: [ 'plugin/admin/src/**' ],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						{ name: 'react', message: 'Import from @wordpress/element (types: React.ReactNode).' },
						{ name: 'react-dom', message: 'Import from @wordpress/element.' },
					],
				},
			],
		},
	},
	{
		// Node code: the sidecar, the scripts, the tests and the benchmarks.
		files: [ 'sidecar/src/**', 'scripts/**', 'tests/**', 'bench/**' ],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			// Command-line tools and benchmarks write to the console on purpose; the sidecar logs through pino.
			'no-console': 'off',
			// Hashes, seeded generators, CIDR masks and file modes: bit operations are the point there.
			'no-bitwise': 'off',
		},
	},
	...wpPlugin.configs[ 'test-unit' ].map( ( config ) => ( { ...config, files: [ 'tests/**' ] } ) ),
	{
		files: [ 'tests/**' ],
		rules: {
			// A setup that cannot be done is a failure: hooks assert it, and so do tests run through a
			// condition (`withTheFixture`: `it` or `it.skip`).
			'jest/no-standalone-expect': [
				'error',
				{
					additionalTestBlockFunctions: [
						'beforeAll',
						'beforeEach',
						'afterAll',
						'afterEach',
						'withTheFixture',
					],
				},
			],
			// Assertions made through the suite's own helpers count (expectRefused and the like).
			'jest/expect-expect': [ 'error', { assertFunctionNames: [ 'expect', 'expect*' ] } ],
			// Table-driven cases assert the outcome each case expects, in its branch.
			'jest/no-conditional-expect': 'off',
		},
	},
	{
		// Cases several test files share (tests/unit/inbound/scheme-cases.ts): jest runs only
		// *.test.ts, so exporting the function that declares them does not run them twice.
		files: [ 'tests/**/*-cases.ts' ],
		rules: { 'jest/no-export': 'off' },
	},
];
