/** Formats of the interface this server does not produce yet: accepted by name, refused clearly. */
import { z } from 'zod';
import { defineFormat, needs } from './types.js';

const pending = (type: string, description: string) =>
  defineFormat({
    type,
    schema: z.looseObject({ type: z.literal(type) }),
    needs: needs({}),
    cost: () => 0,
    output: null,
    description: `${description} (not supported yet by this server).`,
    stage: 'page',
    refuse: (_e, _caps, path) => ({ path, error: 'UNSUPPORTED_OPTION', message: `The '${type}' format is not supported yet by this server` }),
  });

export const audioFormat = pending('audio', 'The page\'s audio track');
export const videoFormat = pending('video', 'The page\'s video');
export const attributesFormat = pending('attributes', 'Attribute values of selected elements');
export const queryFormat = pending('query', 'Deprecated: use question or highlights');
