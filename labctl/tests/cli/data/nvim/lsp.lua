-- Drives `labctl lsp` from Neovim's own LSP client (Neovim 0.7+, headless): opens the lab's
-- step-8 patch and step-5 patch, and writes what the editor got, one fact a line, to OUT.
-- Run: LABCTL=... DIR=... OUT=... nvim --headless -u NONE -c 'luafile lsp.lua'
local labctl, dir, out_path = os.getenv('LABCTL'), os.getenv('DIR'), os.getenv('OUT')
local out = {}
local function log(line) table.insert(out, line) end

local function finish()
  local f = io.open(out_path, 'w')
  f:write(table.concat(out, '\n') .. '\n')
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  local client = vim.lsp.start_client({ name = 'labctl', cmd = { labctl, 'lsp' }, root_dir = dir })
  assert(client, 'labctl lsp did not start')

  vim.cmd('edit ' .. dir .. '/08-kubelet.yaml')
  local step8 = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(step8, client)
  vim.wait(10000, function() return #vim.diagnostic.get(step8) > 0 end, 20)
  for _, d in ipairs(vim.diagnostic.get(step8)) do
    local code = d.user_data and d.user_data.lsp and d.user_data.lsp.code or d.code
    log(string.format('diagnostic line %d col %d %s: %s', d.lnum + 1, d.col + 1, code,
      vim.split(d.message, '\n')[1]))
  end

  -- Completion under `machine:` (line 2, column 3: where `kubelet` starts).
  local uri = vim.uri_from_bufnr(step8)
  local completion = vim.lsp.buf_request_sync(step8, 'textDocument/completion',
    { textDocument = { uri = uri }, position = { line = 1, character = 2 } }, 5000)
  local offered = false
  for _, response in pairs(completion or {}) do
    for _, item in ipairs(response.result or {}) do
      if item.label == 'kubelet' then offered = true end
    end
  end
  log('completion under machine offers kubelet: ' .. tostring(offered))

  -- The quick fix of the diagnostic, applied as the editor applies it.
  local d = vim.diagnostic.get(step8)[1]
  local range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }
  local actions = vim.lsp.buf_request_sync(step8, 'textDocument/codeAction',
    { textDocument = { uri = uri }, range = range, context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(step8, d.lnum) } }, 5000)
  for _, response in pairs(actions or {}) do
    for _, action in ipairs(response.result or {}) do
      log('code action: ' .. action.title)
      vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
    end
  end
  log('line 4 after the fix: ' .. vim.api.nvim_buf_get_lines(step8, 3, 4, false)[1])

  -- Hover on `nodeLabels` in the step-5 patch.
  vim.cmd('edit ' .. dir .. '/05-labels.yaml')
  local step5 = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(step5, client)
  local hover = vim.lsp.buf_request_sync(step5, 'textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(step5) }, position = { line = 1, character = 4 } }, 5000)
  for _, response in pairs(hover or {}) do
    if response.result then
      log('hover: ' .. vim.split(response.result.contents.value, '\n')[1])
      log('hover doc: ' .. vim.split(response.result.contents.value, '\n')[3])
    end
  end
end)
if not ok then log('error: ' .. tostring(err)) end
finish()
