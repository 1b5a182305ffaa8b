// Signup sessions of the archived contracts (spec 3.5, 4.7): see checks/signup/.
export { signupChecks } from './signup/index.js';
