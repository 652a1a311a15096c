import { SelectControl } from '@wordpress/components';
import type { Option } from './format';

/** One filter of a list: a select whose first choice, `allLabel` (value ''), filters nothing. */
export function FilterSelect( {
	label,
	allLabel,
	value,
	options,
	onChange,
}: {
	label: string;
	allLabel: string;
	value: string;
	options: Option[];
	onChange: ( value: string ) => void;
} ) {
	return (
		<SelectControl
			__nextHasNoMarginBottom
			__next40pxDefaultSize
			label={ label }
			value={ value }
			options={ [ { label: allLabel, value: '' }, ...options ] }
			onChange={ ( next: string ) => onChange( next ) }
		/>
	);
}
