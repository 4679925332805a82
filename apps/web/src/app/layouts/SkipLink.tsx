import type { MouseEvent } from 'react';
import classes from './SkipLink.module.css';

/** The id of each layout's main landmark, the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * The first thing a keyboard reaches on every page (WCAG 2.4.1): hidden until focused, it moves focus past the
 * navigation to the page's content. Focus moves by script, so the URL (and the router) stay as they are.
 */
export function SkipLink() {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const main = document.getElementById(MAIN_CONTENT_ID);
    main?.focus();
    main?.scrollIntoView();
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className={classes.skip} onClick={handleClick}>
      Skip to content
    </a>
  );
}
