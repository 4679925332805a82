import { Group } from '@mantine/core';
import { NavLink } from 'react-router';
import type { NavItem } from './nav-items.ts';
import classes from './Header.module.css';

/** `visibleFrom`: below it the links fold into the header's menu (the main layout's has more to fit). */
export function NavLinks({
  items,
  label,
  visibleFrom = 'sm',
}: {
  items: NavItem[];
  label: string;
  visibleFrom?: 'sm' | 'md';
}) {
  return (
    <Group gap={4} component="nav" aria-label={label} visibleFrom={visibleFrom} wrap="nowrap">
      {items.map((item) => (
        <NavLink key={item.to} to={item.to} className={classes.link}>
          {item.label}
        </NavLink>
      ))}
    </Group>
  );
}
