import { Button } from '@wordpress/components';
import type { Action } from '../hooks/use-action';
import { ADDING, type AddPanelState } from '../hooks/use-add-panel';

/** What the form inside an add panel is given. */
export interface AddFormProps< Input > {
	busy: boolean;
	onSubmit: ( input: Input ) => void;
	/** A problem with the input, found before sending (shown in place of any earlier error). */
	onInvalid: ( message: string, field: string ) => void;
	onCancel: () => void;
}

/** The header button that opens a section's add panel; gone while the panel is open. */
export function AddButton< Input >( { label, panel }: { label: string; panel: AddPanelState< Input > } ) {
	if ( panel.open ) {
		return null;
	}
	return (
		<Button variant="primary" size="compact" onClick={ panel.start }>
			{ label }
		</Button>
	);
}

interface Props< Input > {
	/** The panel's heading, the same words as its button ("Add a source"). */
	title: string;
	panel: AddPanelState< Input >;
	/** The section's action: its busy key and where the form's validation error shows. */
	action: Action;
	form: React.ComponentType< AddFormProps< Input > >;
}

/** A list section's panel for adding one item, open from its header button until the item is created. */
export function AddPanel< Input >( { title, panel, action, form: Form }: Props< Input > ) {
	if ( ! panel.open ) {
		return null;
	}
	return (
		<div className="si-subsection si-panel">
			<h3>{ title }</h3>
			<Form
				busy={ action.busy === ADDING }
				onSubmit={ panel.submit }
				onInvalid={ action.invalid }
				onCancel={ panel.cancel }
			/>
		</div>
	);
}
