import { describe, expect, it } from 'vitest';
import { isDateTime, validateEdit, type ArgDescriptors } from '../../../src/push/validate-edit.js';

const args: ArgDescriptors = {
  id: { type: 'integer' },
  title: { type: 'object', properties: { raw: { type: 'string' } } },
  content: { type: 'object' },
  status: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private'] },
  slug: { type: 'string' },
  date_gmt: { type: ['string', 'null'], format: 'date-time' },
  menu_order: { type: 'integer', minimum: 0, maximum: 1000 },
  sticky: { type: 'boolean' },
  categories: { type: 'array', items: { type: 'integer' } },
  format: { type: 'string', enum: ['standard', 'aside'] },
  footnote: { type: 'string', required: true },
};

describe('validateEdit', () => {
  it('accepts a valid update (title and content as raw strings)', () => {
    const result = validateEdit({
      file: 'a.html',
      mode: 'update',
      args,
      fields: {
        title: 'T',
        content: '<p>x</p>',
        status: 'draft',
        date_gmt: null,
        categories: [1, 2],
        sticky: true,
      },
    });
    expect(result).toEqual({ errors: [], warnings: [] });
  });

  it('collects every problem with its file and field', () => {
    const result = validateEdit({
      file: 'a.html',
      mode: 'update',
      args,
      fields: {
        status: 'publishd',
        menu_order: -1,
        date_gmt: '2024-02-30T10:00:00',
        categories: [1, 'x'],
        sticky: 'yes',
        colour: 'red',
        slug: 5,
      },
    });
    expect(result.errors).toEqual([
      {
        file: 'a.html',
        field: 'status',
        message: 'status must be one of publish, future, draft, pending, private, got "publishd"',
      },
      { file: 'a.html', field: 'menu_order', message: 'menu_order must be at least 0, got -1' },
      {
        file: 'a.html',
        field: 'date_gmt',
        message:
          'date_gmt must be a date-time such as 2024-03-14T10:00:00, got "2024-02-30T10:00:00"',
      },
      { file: 'a.html', field: 'categories', message: 'categories[1] must be integer, got "x"' },
      { file: 'a.html', field: 'sticky', message: 'sticky must be boolean, got "yes"' },
      {
        file: 'a.html',
        field: 'colour',
        message: '"colour" is not a writable field of this route',
      },
      { file: 'a.html', field: 'slug', message: 'slug must be string, got 5' },
    ]);
  });

  it('reports missing required args on create only, and refuses path args as body fields', () => {
    expect(
      validateEdit({ file: 'n.html', mode: 'create', args, fields: { title: 'x' } }).errors,
    ).toEqual([
      { file: 'n.html', field: 'footnote', message: '"footnote" is required to create an item' },
    ]);
    expect(
      validateEdit({ file: 'n.html', mode: 'update', args, fields: { title: 'x' } }).errors,
    ).toEqual([]);
    expect(
      validateEdit({ file: 'n.html', mode: 'update', args, fields: { id: 3 } }).errors,
    ).toEqual([
      { file: 'n.html', field: 'id', message: '"id" is not a writable field of this route' },
    ]);
  });

  it('can leave enum checks to the site', () => {
    expect(
      validateEdit({
        file: 'a',
        mode: 'update',
        args,
        fields: { status: 'publishd' },
        skipEnum: true,
      }).errors,
    ).toEqual([]);
    expect(
      validateEdit({
        file: 'a',
        mode: 'update',
        args,
        fields: { menu_order: 1001 },
        skipEnum: true,
      }).errors,
    ).toHaveLength(1);
  });

  it('rejects null where the type does not allow it', () => {
    expect(
      validateEdit({ file: 'a', mode: 'update', args, fields: { slug: null } }).errors[0]?.message,
    ).toBe('slug must not be null (expected string)');
  });
});

describe('isDateTime', () => {
  it.each([
    ['2024-03-14T10:00:00', true],
    ['2024-03-14T10:00:00Z', true],
    ['2024-03-14T10:00:00.123+02:00', true],
    ['2024-02-29T23:59:59', true],
    ['2023-02-29T10:00:00', false],
    ['2024-03-14T24:00:00', false],
    ['2024-03-14', false],
    ['yesterday', false],
  ])('%s → %s', (value, expected) => {
    expect(isDateTime(value)).toBe(expected);
  });
});
