export { buildExampleWarehouse, ensureExampleWarehouse } from './build-warehouse.js';
export { EXAMPLE_SEED, generateShopData, type ShopData, seededRandom } from './shop-data.js';
