import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { queryClientLoader } from './app/load-query-client'
import { createAppRouter } from './app/router'
import { createAuthStore } from './features/auth/api/auth-store'
import './styles.css'

const router = createAppRouter({ auth: createAuthStore(), loadQueryClient: queryClientLoader() })

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(
  <StrictMode>
    <App router={router} />
  </StrictMode>,
)
