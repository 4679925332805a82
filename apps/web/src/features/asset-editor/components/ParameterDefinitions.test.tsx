import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderUi } from '../../../test/render-ui.tsx';
import { newParameter, type ParameterDraft } from '../model/asset-draft.ts';
import { placeholderSyntax } from '../model/placeholders.ts';
import { ParameterDefinitions } from './ParameterDefinitions.tsx';

// The parameter cards: errors from the contract's own checks that clear as the field becomes valid, a fixed list of
// allowed values put in order, and a parent that would make a cycle offered greyed with the reason.

function Harness({ initial }: { initial: ParameterDraft[] }) {
  const [parameters, setParameters] = useState(initial);
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <ParameterDefinitions
      parameters={parameters}
      detected={parameters.map((p) => p.name)}
      syntax={placeholderSyntax.sql}
      onChange={setParameters}
      collectionUid="col-1"
      values={values}
      onValuesChange={setValues}
    />
  );
}

const fromSource = (name: string, dependsOn: string[]): ParameterDraft => ({
  ...newParameter(name),
  rest: { allowedValues: { kind: 'dataSource', dataSourceId: 3, valueColumn: 'v', labelColumn: 'l', dependsOn } },
});

// Whole cards in jsdom are slow on a shared machine: a longer time limit.
describe('the parameter cards', { timeout: 60_000 }, () => {
  it('say what is wrong with a field while it is, and nothing once it is right', async () => {
    fakeApi({});
    const user = userEvent.setup();
    renderUi(<Harness initial={[{ ...newParameter('size'), type: 'integer' }]} />);
    const card = screen.getByRole('article', { name: 'Parameter size' });
    const pattern = () => within(card).queryByRole('textbox', { name: 'Pattern of size' });
    expect(pattern()).toBeNull(); // a number has no pattern

    await user.click(within(card).getByText('Fixed list'));
    expect(within(card).getByText('A value is required')).toBeTruthy();
    await user.type(within(card).getByRole('textbox', { name: 'Value 1 of size' }), '10');
    expect(within(card).queryByText('A value is required')).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Add a value' }));
    await user.type(within(card).getByRole('textbox', { name: 'Value 2 of size' }), '20');
    await user.click(within(card).getByRole('button', { name: 'Move value 2 of size up' }));
    expect(within(card).getByRole('textbox', { name: 'Value 1 of size' })).toHaveProperty('value', '20');

    const name = within(card).getByRole('textbox', { name: 'Name of size' });
    await user.clear(name);
    await user.type(name, '1x');
    expect(screen.getByText(/A name starts with a letter/)).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'x1');
    expect(screen.queryByText(/A name starts with a letter/)).toBeNull();
  });

  it('grey a parent that would make a cycle, saying why, and check patterns as the server does', async () => {
    fakeApi({ 'GET /api/DataSource': { body: [] } });
    const user = userEvent.setup();
    renderUi(<Harness initial={[fromSource('region', []), fromSource('country', ['region'])]} />);
    const region = screen.getByRole('article', { name: 'Parameter region' });
    const country = within(region).getByRole('checkbox', { name: 'country' });
    expect(country).toHaveProperty('disabled', true);
    expect(within(region).getByText(/Not offered: region → country → region would make a cycle/)).toBeTruthy();
    const countryCard = screen.getByRole('article', { name: 'Parameter country' });
    expect(within(countryCard).getByRole('checkbox', { name: 'region' })).toHaveProperty('checked', true);

    const pattern = within(countryCard).getByRole('textbox', { name: 'Pattern of country' });
    await user.type(pattern, 'a(?=b)');
    expect(within(countryCard).getByText(/uses a feature that is not supported \(lookahead\)/)).toBeTruthy();
    await user.clear(pattern);
    await user.type(pattern, '[[A-Z]{{2}'); // user-event escapes: the text is [A-Z]{2}
    expect(pattern).toHaveProperty('value', '[A-Z]{2}');
    expect(within(countryCard).queryByText(/not supported/)).toBeNull();
  });
});
