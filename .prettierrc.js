/**
 * WordPress's Prettier config (tabs, spaces inside parentheses, single quotes), with lines
 * of 120 columns: this is TypeScript with long type signatures, which 80 would fold into
 * towers of one argument per line.
 */
module.exports = {
	...require( '@wordpress/prettier-config' ),
	printWidth: 120,
};
