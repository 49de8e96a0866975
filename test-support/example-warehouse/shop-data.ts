/**
 * The bundled example's business data: a small online shop selling coffee, tea and gear,
 * generated from a fixed seed so that every machine builds the same rows (the example's
 * tests and their recorded answers depend on it).
 */

export const EXAMPLE_SEED = 20240101;

/** mulberry32: tiny, fast and identical on every platform (only 32-bit integer math). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Customer {
  customer_id: number;
  first_name: string;
  last_name: string;
  email: string;
  city: string;
  country: string;
  signup_date: string;
}
export interface Product {
  product_id: number;
  name: string;
  category: string;
  /** Exact cents as a decimal string, e.g. '12.50'. */
  price: string;
}
export interface Order {
  order_id: number;
  customer_id: number;
  order_date: string;
  status: OrderStatus;
}
export interface OrderItem {
  order_item_id: number;
  order_id: number;
  product_id: number;
  quantity: number;
  unit_price: string;
}
export interface Payment {
  payment_id: number;
  order_id: number;
  payment_method: string;
  amount: string;
  paid_at: string;
}

export type OrderStatus = 'placed' | 'shipped' | 'completed' | 'returned' | 'cancelled';

export interface ShopData {
  customers: Customer[];
  products: Product[];
  orders: Order[];
  order_items: OrderItem[];
  payments: Payment[];
}

const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Inès',
  'Jonas',
  'Kemal',
  'Lena',
  'Marco',
  'Nadia',
  'Oscar',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tara',
  'Uma',
  'Victor',
  'Wen',
  'Yara',
  'Zoé',
];
const LAST_NAMES = [
  'Adams',
  'Berg',
  'Costa',
  'Dubois',
  'Evans',
  'Fischer',
  'García',
  'Hansen',
  'Ito',
  'Jensen',
  'Kowalski',
  'López',
  'Müller',
  'Novak',
  'Olsen',
  'Petrov',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Weber',
];
const PLACES: ReadonlyArray<readonly [string, string]> = [
  ['Paris', 'France'],
  ['Lyon', 'France'],
  ['Berlin', 'Germany'],
  ['Munich', 'Germany'],
  ['London', 'United Kingdom'],
  ['Manchester', 'United Kingdom'],
  ['Madrid', 'Spain'],
  ['Barcelona', 'Spain'],
  ['Amsterdam', 'Netherlands'],
  ['Milan', 'Italy'],
  ['New York', 'United States'],
  ['Chicago', 'United States'],
];
const CATALOGUE: ReadonlyArray<readonly [string, string, number]> = [
  ['Espresso Beans 1kg', 'coffee', 2450],
  ['Filter Roast 500g', 'coffee', 1290],
  ['Decaf Blend 500g', 'coffee', 1390],
  ['Single Origin Ethiopia 250g', 'coffee', 1175],
  ['Cold Brew Pack', 'coffee', 1599],
  ['Earl Grey 100g', 'tea', 699],
  ['Sencha Green 100g', 'tea', 849],
  ['Chamomile 50g', 'tea', 450],
  ['Masala Chai 200g', 'tea', 925],
  ['Oolong Reserve 100g', 'tea', 1450],
  ['Pour-Over Kettle', 'equipment', 5900],
  ['Burr Grinder', 'equipment', 12900],
  ['French Press 1L', 'equipment', 3450],
  ['Espresso Tamper', 'equipment', 2250],
  ['Milk Frother', 'equipment', 4599],
  ['Ceramic Mug', 'merchandise', 1200],
  ['Travel Tumbler', 'merchandise', 2400],
  ['Tote Bag', 'merchandise', 990],
  ['Gift Card 25', 'gift', 2500],
  ['Gift Card 50', 'gift', 5000],
];
const STATUSES: ReadonlyArray<readonly [OrderStatus, number]> = [
  ['completed', 0.72],
  ['shipped', 0.1],
  ['placed', 0.05],
  ['returned', 0.07],
  ['cancelled', 0.06],
];
const PAYMENT_METHODS: ReadonlyArray<readonly [string, number]> = [
  ['credit_card', 0.6],
  ['bank_transfer', 0.2],
  ['gift_card', 0.12],
  ['coupon', 0.08],
];

const DAY_MS = 86_400_000;
const START = Date.UTC(2024, 0, 1);
const DAYS = 731; // 2024-01-01 through 2025-12-31

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function cents(value: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Builds the whole data set; the same seed always gives the same rows. */
export function generateShopData(
  options: { seed?: number; customers?: number; orders?: number } = {},
): ShopData {
  const random = seededRandom(options.seed ?? EXAMPLE_SEED);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: ReadonlyArray<T>): T => items[Math.floor(random() * items.length)]!;
  const weighted = <T>(items: ReadonlyArray<readonly [T, number]>): T => {
    let roll = random();
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return items[items.length - 1]![0];
  };

  const products: Product[] = CATALOGUE.map(([name, category, price], index) => ({
    product_id: index + 1,
    name,
    category,
    price: cents(price),
  }));

  const customerCount = options.customers ?? 400;
  const customers: Customer[] = [];
  for (let id = 1; id <= customerCount; id++) {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const [city, country] = pick(PLACES);
    customers.push({
      customer_id: id,
      first_name: first,
      last_name: last,
      email: `${first}.${last}.${id}@example.com`
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase(),
      city,
      country,
      // Sign-ups spread over the two years, weighted to the first months so customers order repeatedly.
      signup_date: isoDate(START + Math.floor(random() * random() * (DAYS - 30)) * DAY_MS),
    });
  }

  const orderCount = options.orders ?? 2500;
  const orders: Order[] = [];
  const orderItems: OrderItem[] = [];
  const payments: Payment[] = [];
  for (let id = 1; id <= orderCount; id++) {
    const customer = customers[int(0, customers.length - 1)]!;
    const signup = Date.parse(customer.signup_date);
    const firstDay = Math.round((signup - START) / DAY_MS);
    const day = int(firstDay, DAYS - 1);
    const status = weighted(STATUSES);
    orders.push({
      order_id: id,
      customer_id: customer.customer_id,
      order_date: isoDate(START + day * DAY_MS),
      status,
    });

    let totalCents = 0;
    const lines = int(1, 4);
    const used = new Set<number>();
    for (let line = 0; line < lines; line++) {
      const product = pick(products);
      if (used.has(product.product_id)) continue;
      used.add(product.product_id);
      const quantity = product.category === 'equipment' ? 1 : int(1, 3);
      const priceCents = Math.round(Number(product.price) * 100);
      totalCents += quantity * priceCents;
      orderItems.push({
        order_item_id: orderItems.length + 1,
        order_id: id,
        product_id: product.product_id,
        quantity,
        unit_price: product.price,
      });
    }

    if (status === 'cancelled') continue;
    const paidAt = START + day * DAY_MS + int(6 * 3600, 23 * 3600) * 1000 + int(0, 999) * 1000;
    const method = weighted(PAYMENT_METHODS);
    // One order in eight is paid in two parts (a coupon or gift card, then the rest by card).
    if (totalCents > 2000 && random() < 0.125) {
      const first = Math.round(totalCents * 0.2);
      payments.push({
        payment_id: payments.length + 1,
        order_id: id,
        payment_method: 'coupon',
        amount: cents(first),
        paid_at: timestamp(paidAt),
      });
      payments.push({
        payment_id: payments.length + 1,
        order_id: id,
        payment_method: 'credit_card',
        amount: cents(totalCents - first),
        paid_at: timestamp(paidAt + 60_000),
      });
    } else {
      payments.push({
        payment_id: payments.length + 1,
        order_id: id,
        payment_method: method,
        amount: cents(totalCents),
        paid_at: timestamp(paidAt),
      });
    }
  }

  return { customers, products, orders, order_items: orderItems, payments };
}

function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}
