// The longest SKU the API can address: `maxLength` of the SKU path parameter of the evidence endpoint
// (spec 4.2). Catalog uploads and trade feeds refuse a longer one.
import { parameterMaxLength } from '../../kernel/bounds.js';

export const MAX_SKU_LENGTH: number = parameterMaxLength('SimaSku');
