import { Group } from '@mantine/core';
import { NavLink } from 'react-router';
import type { NavItem } from './nav-items.ts';
import classes from './Header.module.css';

export function NavLinks({ items, label }: { items: NavItem[]; label: string }) {
  return (
    <Group gap={4} component="nav" aria-label={label} visibleFrom="sm" wrap="nowrap">
      {items.map((item) => (
        <NavLink key={item.to} to={item.to} className={classes.link}>
          {item.label}
        </NavLink>
      ))}
    </Group>
  );
}
