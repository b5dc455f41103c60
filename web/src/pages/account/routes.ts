// The account pages: sign-in, sign-up and onboarding, and the pages mails link to.
import type { PageRoute } from '../../app/router.tsx';
import ForgotPassword from './ForgotPassword.tsx';
import Invitation from './Invitation.tsx';
import Onboarding from './Onboarding.tsx';
import ResetPassword from './ResetPassword.tsx';
import SignIn from './SignIn.tsx';
import VerifyEmail from './VerifyEmail.tsx';

export const routes: PageRoute[] = [
  { path: '/sign-in', title: 'Sign in', access: 'public', bare: true, page: SignIn },
  { path: '/sign-up', title: 'Create an account', access: 'public', bare: 'wide', page: Onboarding },
  { path: '/onboarding', title: 'Finish signing up', bare: 'wide', page: Onboarding },
  { path: '/verify-email', title: 'Verify your e-mail address', access: 'public', bare: true, page: VerifyEmail },
  { path: '/forgot-password', title: 'Forgotten password', access: 'public', bare: true, page: ForgotPassword },
  { path: '/reset-password', title: 'Choose a new password', access: 'public', bare: true, page: ResetPassword },
  { path: '/invitation', title: 'Invitation', access: 'public', bare: true, page: Invitation },
];
