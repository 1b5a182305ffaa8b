// The billing domain's types: the sandbox payment processor's customers and setup intents.
export interface PaymentCustomer {
  id: string;
  rev?: number;
  tenantId: string;
  email: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SetupIntent {
  id: string;
  rev?: number;
  tenantId: string;
  paymentCustomerId: string;
  /** No payment method is ever attached in the sandbox: the intent stays where a processor starts it. */
  status: 'requires_payment_method';
  billingEmail: string | null;
  createdAt: string;
}
