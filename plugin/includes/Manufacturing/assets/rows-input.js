/**
 * Adds, removes and moves the rows of a manufacturing order's list fields (items) with the
 * buttons the server printed, keeps each row's input names and labels in order, and says
 * what changed in the group's live region. Without it the rows are plain inputs: typing in
 * the empty last row adds an entry, emptying a row removes it.
 */
( function () {
	'use strict';

	function setUp( group ) {
		const body = group.querySelector( 'tbody' );
		const template = group.querySelector( 'template.service-integration-mo-rows-template' );
		const status = group.querySelector( '.service-integration-mo-rows-status' );
		const texts = JSON.parse( group.getAttribute( 'data-announce' ) || '{}' );

		const rows = () => Array.prototype.slice.call( body.children );
		const say = ( text, number ) => {
			// A changed text is read out; the same text twice needs emptying first.
			status.textContent = '';
			window.setTimeout( () => {
				status.textContent = String( text || '' ).replace( '%d', String( number ) );
			}, 50 );
		};

		// Input names carry the row's index, labels its number: both follow the row's place.
		const renumber = () => {
			rows().forEach( ( row, index ) => {
				row.querySelectorAll( '[name]' ).forEach( ( input ) => {
					input.name = input.name.replace( /\]\[(\d+|__index__)\]\[/, '][' + index + '][' );
				} );
				row.querySelectorAll( '[id]' ).forEach( ( input ) => {
					const old = input.id;
					input.id = old.replace( /-(\d+|__index__)-([^-]+)$/, '-' + index + '-$2' );
					const label = row.querySelector( 'label[for="' + old + '"]' );
					if ( label ) {
						label.htmlFor = input.id;
					}
				} );
				row.querySelectorAll( '[data-template]' ).forEach( ( element ) => {
					const text = element.getAttribute( 'data-template' ).replace( '%d', String( index + 1 ) );
					if ( element.tagName === 'BUTTON' ) {
						element.setAttribute( 'aria-label', text );
					} else {
						element.textContent = text;
					}
				} );
			} );
		};

		group.querySelector( '.service-integration-mo-rows-add' ).addEventListener( 'click', () => {
			body.appendChild( document.importNode( template.content, true ) );
			renumber();
			const added = rows()[ rows().length - 1 ];
			added.querySelector( 'input:not([type=hidden])' ).focus();
			say( texts.added, rows().length );
		} );

		body.addEventListener( 'click', ( event ) => {
			const button = event.target.closest( 'button[data-action]' );
			if ( ! button ) {
				return;
			}
			const row = button.closest( 'tr' );
			const all = rows();
			const index = all.indexOf( row );
			const action = button.getAttribute( 'data-action' );
			if ( action === 'remove' ) {
				const next = all[ index + 1 ] || all[ index - 1 ];
				row.remove();
				renumber();
				const focus = next
					? next.querySelector( 'button[data-action=remove]' )
					: group.querySelector( '.service-integration-mo-rows-add' );
				focus.focus();
				say( texts.removed, index + 1 );
				return;
			}
			const up = action === 'up';
			if ( ( up && index === 0 ) || ( ! up && index === all.length - 1 ) ) {
				say( up ? texts.first : texts.last, index + 1 );
				return;
			}
			if ( up ) {
				body.insertBefore( row, all[ index - 1 ] );
			} else {
				body.insertBefore( all[ index + 1 ], row );
			}
			renumber();
			// Moving a node can drop its focus; the same button keeps it.
			button.focus();
			say( texts.moved, index + ( up ? 0 : 2 ) );
		} );
	}

	document.querySelectorAll( '.service-integration-mo-rows' ).forEach( setUp );
} )();
